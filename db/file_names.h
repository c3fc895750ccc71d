// file_names.h: the names of layer files, and finding them in a directory (docs/design.md §6).
//
// A layer file is named after its rules and layer: "kalah-m6-empty-immediate-owner-s24.kdb". The
// two functions below are each other's inverse; no other code builds or reads these names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/database_error.h"
#include "game/rules.h"

namespace kalah {

// "kalah-m6-empty-immediate-owner-s24.kdb"
std::string layer_file_name(const Rules& rules, int s);
// DIR/NAME of that file.
std::string layer_path(const std::string& dir, const Rules& rules, int s);

struct LayerName {
  Rules rules;
  int seeds = 0;
};
// The rules and layer a file name stands for, or nothing when it is not exactly a name that
// layer_file_name writes (so "…-s05.kdb" or "…-s5.kdb.tmp" are not layer files).
std::optional<LayerName> parse_layer_file_name(const std::string& name);

// The database directory used when none is named: $KALAH_DB, else $XDG_CACHE_HOME/kalah/db when
// that is absolute (the XDG spec ignores a relative one), else HOME/.cache/kalah/db with HOME
// from the environment or, when unset or relative, the account; empty when there is no home (a
// build must not write into /). The one scripts/run.sh builds.
std::string default_database_dir();

// The variants found in a directory, each with the layers present (not yet validated).
struct VariantFiles {
  Rules rules;
  std::vector<int> layers;  // ascending
};
// Throws DatabaseError when the directory cannot be read.
std::vector<VariantFiles> list_variants(const std::string& dir);
// What a directory holds, for error messages: "it holds m=6 capture=empty ... layers 1..22; ..."
// or "it holds no layer files".
std::string describe_variants(const std::vector<VariantFiles>& variants);
// Files that look like layer files (kalah-m….kdb) but are not named as kalah names them (e.g.
// "…-s05.kdb"): they are never read, and a tool should say so.
std::vector<std::string> stray_layer_files(const std::string& dir);

}  // namespace kalah
