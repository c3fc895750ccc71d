// certificate.cpp: the certificate file of certificate.h.
#include "store/certificate.h"

#include <sstream>

#include "base/atomic_file.h"
#include "base/checksum.h"
#include "base/compress.h"
#include "db/file_names.h"
#include "game/notation.h"
#include "kalah/version.h"

namespace kalah {

uint64_t write_certificate(const std::string& path, const CertificateHeader& h,
                           const std::vector<uint8_t>& moves) {
  const int m = h.rules.pits;
  std::ostringstream text;
  text << "kalah certificate 1\n"
       << "rules m=" << m << " " << describe(h.rules) << "\n"
       << "board";
  for (int i = 0; i < 2 * m; ++i) text << " " << int{h.position.board.pits[i]};
  text << "\nvalue " << h.value << "\n"
       << "position " << format_absolute(h.position, m) << "\n"
       << "leaf-layer " << (h.db ? h.db->max_seeds() : 0) << "\n";
  for (int s = 1; h.db && s <= h.db->max_seeds(); ++s) {
    text << "layer " << s << " " << layer_file_name(h.rules, s) << " "
         << to_hex(h.db->layer(s).header().body_checksum) << "\n";
  }
  // Apart from the layer lines, which readers before 0.10 take with three fields exactly.
  for (int s = 1; h.db && s <= h.db->max_seeds(); ++s)
    text << "layer-format " << s << " " << h.db->layer(s).header().version << "\n";
  text << "moves " << moves.size() << "\n"
       << "positions " << h.positions << "\n"
       << "writer kalah " << KALAH_VERSION_STRING << "\n"
       << "end\n";
  // The moves compress well: most are the first pits tried.
  constexpr int kLevel = 19;
  const std::string frame = compress_block(moves.data(), moves.size(), kLevel);

  const size_t slash = path.find_last_of('/');
  AtomicFile file(slash == std::string::npos ? "."
                  : slash == 0               ? "/"
                                             : path.substr(0, slash),
                  slash == std::string::npos ? path : path.substr(slash + 1));
  const std::string head = text.str();
  file.write(head.data(), head.size());
  file.write(frame.data(), frame.size());
  file.commit();
  return head.size() + frame.size();
}

}  // namespace kalah
