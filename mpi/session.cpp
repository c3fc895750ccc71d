// session.cpp: starting and ending MPI; errors with a message.
#include "mpi/session.h"

#include <climits>
#include <stdexcept>
#include <string>

namespace kalah {

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  // Errors come back as codes (check() turns them into exceptions with a message) instead of
  // ending the job without one.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &process_);
  MPI_Comm_size(MPI_COMM_WORLD, &processes_);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, process_, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_processes_);
  MPI_Comm_free(&local);
}

MpiSession::~MpiSession() {
  MPI_Finalize();
}

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed (" + std::string(text, length) +
                           "): another process has probably stopped");
}

int as_count(uint64_t n) {
  if (n > INT_MAX) throw std::overflow_error("an MPI message of more than 2^31 elements");
  return static_cast<int>(n);
}

}  // namespace kalah
