// certificate.cpp: the certificate file of certificate.h.
#include "store/certificate.h"

#include <sstream>

#include "db/atomic_file.h"
#include "db/checksum.h"
#include "db/file_names.h"
#include "kalah/version.h"
#include "solver/notation.h"
#include "solver/proof.h"
#include "solver/search_run.h"
#include "solver/units.h"

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

Certified certify(const std::string& file, const Rules& rules, const Position& p, int margin,
                  const Database* db, const StopFlag* stop,
                  const std::function<void(uint64_t positions)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const int value = margin - (p.mover_store - p.opponent_store);
  ProofWriter proof(rules, db, kSearchTableBytes);
  proof.set_stop_flag(stop);
  if (progress) proof.set_progress(progress);
  proof.prove(p.board, value);
  Certified c;
  c.file = file;
  c.bytes = write_certificate(file, {rules, p, value, db, proof.positions()}, proof.moves());
  c.positions = proof.positions();
  c.moves = proof.moves().size();
  c.nodes = proof.search_nodes();
  c.seconds = seconds_since(start);
  return c;
}

}  // namespace kalah
