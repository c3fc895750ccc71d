// json_check.h: an independent check that a text is one well-formed JSON value in well-formed
// UTF-8, for the tests and the JSON fuzz target (written apart from base/json.cpp on purpose).
#pragma once

#include <cctype>
#include <cstdint>
#include <string>

namespace kalah::test {

class JsonCheck {
 public:
  // Whether `text` is exactly one JSON value (whitespace around it allowed), all UTF-8.
  static bool valid(const std::string& text) {
    JsonCheck c(text);
    if (!c.utf8()) return false;
    c.space();
    if (!c.value()) return false;
    c.space();
    return c.i_ == text.size();
  }

 private:
  explicit JsonCheck(const std::string& t) : t_(t) {}

  // Decodes every character and checks its code point against its length.
  bool utf8() const {
    for (size_t i = 0; i < t_.size();) {
      const uint8_t c = t_[i];
      const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
      if (n == 0 || i + n > t_.size()) return false;
      uint32_t cp = n == 1 ? c : c & (0x7F >> n);
      for (int k = 1; k < n; ++k) {
        const uint8_t d = t_[i + k];
        if ((d >> 6) != 2) return false;
        cp = cp << 6 | (d & 0x3F);
      }
      const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
      i += n;
    }
    return true;
  }
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\t' || t_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  bool word(const char* w) {
    const std::string s(w);
    if (t_.compare(i_, s.size(), s) != 0) return false;
    i_ += s.size();
    return true;
  }
  bool string() {
    if (!eat('"')) return false;
    while (i_ < t_.size() && t_[i_] != '"') {
      const uint8_t c = t_[i_++];
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (i_ >= t_.size()) return false;
      const char e = t_[i_++];
      if (e == 'u') {
        for (int k = 0; k < 4; ++k, ++i_)
          if (i_ >= t_.size() || !std::isxdigit(static_cast<uint8_t>(t_[i_]))) return false;
      } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos) {
        return false;
      }
    }
    return eat('"');
  }
  bool number() {
    const size_t start = i_;
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    while (i_ < t_.size() && std::string("0123456789.eE+-").find(t_[i_]) != std::string::npos) ++i_;
    return i_ > start && std::isdigit(static_cast<uint8_t>(t_[i_ - 1]));
  }
  bool value() {
    space();
    if (i_ >= t_.size()) return false;
    const char c = t_[i_];
    if (c == '"') return string();
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i_;
      if (eat(close)) return true;
      do {
        if (c == '{' && !(string() && eat(':'))) return false;
        if (!value()) return false;
      } while (eat(','));
      return eat(close);
    }
    return word("true") || word("false") || word("null") || number();
  }

  const std::string& t_;
  size_t i_ = 0;
};

}  // namespace kalah::test
