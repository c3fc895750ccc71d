// keyed_hash.h: what kalah keeps for itself on disk (answer records, checkpoints) is believed only
// with a keyed hash that its user's key makes (docs/design.md §7, "What searches keep").
//
// A checksum catches damage; it does not stop a forgery, since anyone can recompute it. A record
// or checkpoint therefore ends with a keyed BLAKE2b-256 (libsodium's crypto_generichash) of all
// before it, under a 32-byte key kept outside the database directory: a file written by someone
// without the key (a planted record, a checkpoint edited by hand, another user's store) fails
// and is ignored, then computed again. The key is $KALAH_KEY_FILE when set, else
// ${XDG_CONFIG_HOME:-$HOME/.config}/kalah/store.key, made on first use (random, mode 0600 in a
// directory of mode 0700), 64 hex digits on one line. A team that shares an answer store or
// checkpoints shares the key file on purpose (copy it, or point KALAH_KEY_FILE at one).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace kalah {

class RecordKey {
 public:
  static constexpr size_t kBytes = 32;

  // The user's key (above), read or made once per process. Throws std::runtime_error naming the
  // file when it cannot be read or made, or does not hold a key. Thread-safe.
  static const RecordKey& user();
  // The path user() reads: for messages and tests.
  static std::string user_path();
  // A key of these bytes (tests).
  explicit RecordKey(const uint8_t (&bytes)[kBytes]);

  // The keyed hash of the pieces, in order, as 64 hex digits.
  std::string mac(std::initializer_list<std::string_view> pieces) const;
  // Whether `hex` is that hash (compared in constant time).
  bool verify(std::initializer_list<std::string_view> pieces, std::string_view hex) const;
  // 16 hex digits that name this key in file names (a keyed hash of a fixed text, which tells
  // nothing of the key): what one key writes never lands on another's file, and a reader leaves
  // the files of other keys alone.
  const std::string& id() const { return id_; }

 private:
  uint8_t key_[kBytes];
  std::string id_;
};

}  // namespace kalah
