// json.h: a one-line JSON object writer (one object per answer, per line; docs/json.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kalah {

// Builds {"key": value, ...} in insertion order, with ": " and ", " separators.
class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value);
  JsonObject& add(const std::string& key, const char* value) {
    return add(key, std::string(value));
  }
  JsonObject& add(const std::string& key, int64_t value);
  JsonObject& add(const std::string& key, int value) { return add(key, int64_t{value}); }
  JsonObject& add(const std::string& key, uint64_t value);
  JsonObject& add(const std::string& key, double value);
  JsonObject& add(const std::string& key, bool value);
  JsonObject& add(const std::string& key, const JsonObject& value);
  JsonObject& add(const std::string& key, const std::vector<JsonObject>& values);
  JsonObject& add(const std::string& key, const std::vector<std::string>& values);
  JsonObject& add(const std::string& key, const std::vector<int>& values);
  std::string str() const { return "{" + body_ + "}"; }

 private:
  JsonObject& raw(const std::string& key, const std::string& json);
  std::string body_;
};

std::string json_quote(const std::string& s);

}  // namespace kalah
