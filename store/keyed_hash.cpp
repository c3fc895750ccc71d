// keyed_hash.cpp: the user's key and the keyed hash of keyed_hash.h (libsodium).
#include "store/keyed_hash.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <stdexcept>

#include "base/regular_file.h"

namespace kalah {
namespace {

void init_sodium() {
  static const int ready = sodium_init();  // thread-safe, once; 1 when already done
  if (ready < 0) throw std::runtime_error("libsodium cannot be initialised");
}

std::string hex(const uint8_t* bytes, size_t n) {
  std::string out(2 * n, '0');
  sodium_bin2hex(out.data(), out.size() + 1, bytes, n);
  return out;
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error("the answer store's key " + path + ": " + why +
                           " (a key of 64 hex digits; delete the file to make a new one, which "
                           "leaves the records and checkpoints made with the old key unused)");
}

// The key in `path`, or nothing when there is no such file. Only a regular file of a line is
// read: a FIFO, a device (/dev/zero), a directory or a dangling link is refused at once.
std::unique_ptr<RecordKey> read_key(const std::string& path) {
  const FileRead f = read_regular_file(path, 256);
  if (f.status == FileRead::Status::kMissing) {
    struct stat link;
    if (lstat(path.c_str(), &link) == 0) fail(path, "is a symbolic link to a missing file");
    return nullptr;
  }
  if (f.status != FileRead::Status::kRead) fail(path, f.why);
  std::string text = f.text.substr(0, f.text.find('\n'));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  uint8_t bytes[RecordKey::kBytes];
  size_t n = 0;
  if (text.size() != 2 * RecordKey::kBytes ||
      sodium_hex2bin(bytes, sizeof bytes, text.data(), text.size(), nullptr, &n, nullptr) != 0 ||
      n != sizeof bytes)
    fail(path, "does not hold a key");
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && (st.st_mode & 077))
    std::cerr << "warning: the answer store's key " << path << " can be read by others (mode "
              << std::oct << (st.st_mode & 0777) << std::dec
              << "): whoever reads it can forge records and checkpoints; chmod 600 it\n";
  return std::make_unique<RecordKey>(bytes);
}

// Makes a new key at `path` unless another process got there first: written to a temporary
// file, then linked to the name, which fails if the name exists. Its directory is made 0700 only
// when kalah creates it: a directory that exists (a team's, a shared one) keeps its mode.
void make_key(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec) fail(path, "cannot create its directory " + dir.string() + ": " + ec.message());
    chmod(dir.c_str(), 0700);
  }
  uint8_t bytes[RecordKey::kBytes];
  randombytes_buf(bytes, sizeof bytes);
  const std::string text = hex(bytes, sizeof bytes) + "\n";
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  unlink(temporary.c_str());  // a crashed run's, or a link someone put there: never followed
  const int fd =
      open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) fail(path, std::string("cannot create it: ") + std::strerror(errno));
  const bool written =
      write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && fsync(fd) == 0;
  close(fd);
  const bool linked = written && (link(temporary.c_str(), path.c_str()) == 0 || errno == EEXIST);
  const int error = errno;
  unlink(temporary.c_str());
  if (!linked) fail(path, std::string("cannot write it: ") + std::strerror(error));
}

}  // namespace

RecordKey::RecordKey(const uint8_t (&bytes)[kBytes]) {
  init_sodium();
  std::memcpy(key_, bytes, kBytes);
  id_ = mac({"kalah key id"}).substr(0, 16);
}

std::string RecordKey::user_path() {
  if (const char* file = std::getenv("KALAH_KEY_FILE"); file && *file) return file;
  const char* config = std::getenv("XDG_CONFIG_HOME");
  if (config && *config) return std::string(config) + "/kalah/store.key";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.config/kalah/store.key";
  throw std::runtime_error(
      "no place for the answer store's key: set KALAH_KEY_FILE, XDG_CONFIG_HOME or HOME");
}

const RecordKey& RecordKey::user() {
  static std::once_flag once;
  static std::unique_ptr<RecordKey> key;
  static std::string error;
  std::call_once(once, [] {
    try {
      init_sodium();
      const std::string path = user_path();
      key = read_key(path);
      if (!key) {
        make_key(path);
        key = read_key(path);
      }
      if (!key) fail(path, "vanished as it was made");
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!key) throw std::runtime_error(error);
  return *key;
}

std::string RecordKey::mac(std::initializer_list<std::string_view> pieces) const {
  crypto_generichash_state state;
  crypto_generichash_init(&state, key_, kBytes, kBytes);
  for (std::string_view piece : pieces)
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(piece.data()),
                              piece.size());
  uint8_t out[kBytes];
  crypto_generichash_final(&state, out, sizeof out);
  return hex(out, sizeof out);
}

bool RecordKey::verify(std::initializer_list<std::string_view> pieces,
                       std::string_view hex_mac) const {
  const std::string expected = mac(pieces);
  return hex_mac.size() == expected.size() &&
         sodium_memcmp(expected.data(), hex_mac.data(), expected.size()) == 0;
}

}  // namespace kalah
