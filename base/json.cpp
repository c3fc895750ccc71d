// json.cpp: string escaping and number formatting for JsonObject.
#include "base/json.h"

#include <cstdio>

#include "base/utf8.h"

namespace kalah {

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {  // a byte that is not part of well-formed UTF-8 becomes U+FFFD
      const size_t n = utf8_length(s, i);
      out += n ? s.substr(i, n) : "\\ufffd";
      i += n ? n - 1 : 0;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

JsonObject& JsonObject::raw(const std::string& key, const std::string& json) {
  if (!body_.empty()) body_ += ", ";
  body_ += json_quote(key) + ": " + json;
  return *this;
}

JsonObject& JsonObject::add(const std::string& key, const std::string& value) {
  return raw(key, json_quote(value));
}
JsonObject& JsonObject::add(const std::string& key, int64_t value) {
  return raw(key, std::to_string(value));
}
JsonObject& JsonObject::add(const std::string& key, uint64_t value) {
  return raw(key, std::to_string(value));
}
JsonObject& JsonObject::add(const std::string& key, double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return raw(key, buf);
}
JsonObject& JsonObject::add(const std::string& key, bool value) {
  return raw(key, value ? "true" : "false");
}
JsonObject& JsonObject::add(const std::string& key, const JsonObject& value) {
  return raw(key, value.str());
}
JsonObject& JsonObject::add(const std::string& key, const std::vector<JsonObject>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].str();
  return raw(key, s + "]");
}
JsonObject& JsonObject::add(const std::string& key, const std::vector<std::string>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + json_quote(values[i]);
  return raw(key, s + "]");
}

JsonObject& JsonObject::add(const std::string& key, const std::vector<int>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return raw(key, s + "]");
}

}  // namespace kalah
