// database_error.h: the error of a database's own files (layers, their directory, decoded copies).
#pragma once

#include "base/file_error.h"

namespace kalah {

// A layer file or database directory that is damaged, foreign or unreadable: a FileError that
// a caller may tell apart from the other files' (checkpoints, answers, logs).
struct DatabaseError : FileError {
  using FileError::FileError;
};

}  // namespace kalah
