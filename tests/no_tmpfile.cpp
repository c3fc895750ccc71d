// no_tmpfile.cpp: preloaded (LD_PRELOAD) into kalah by tests to stand for a file system without
// O_TMPFILE (overlayfs before Linux 6.6, NFS, FUSE), where copies are written under a temporary
// name: open() with O_TMPFILE fails as it does there.
#include <dlfcn.h>
#include <fcntl.h>

#include <cerrno>
#include <cstdarg>

namespace {

using OpenFn = int (*)(const char*, int, ...);

int forward(const char* symbol, const char* path, int flags, mode_t mode) {
  if ((flags & O_TMPFILE) == O_TMPFILE) {
    errno = EOPNOTSUPP;
    return -1;
  }
  const auto real = reinterpret_cast<OpenFn>(::dlsym(RTLD_NEXT, symbol));
  return real(path, flags, mode);
}

mode_t mode_of(int flags, va_list ap) {
  return (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;
}

}  // namespace

extern "C" int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_of(flags, ap);
  va_end(ap);
  return forward("open", path, flags, mode);
}

extern "C" int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = mode_of(flags, ap);
  va_end(ap);
  return forward("open64", path, flags, mode);
}
