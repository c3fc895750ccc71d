// units.h: elapsed time and byte counts as reports and messages give them, written once.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace kalah {

// Seconds since t0 on the steady clock: what every report's "seconds" measures.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// "512.0 KiB", "1.3 GiB": binary units, one decimal.
inline std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[u]);
  return text;
}

}  // namespace kalah
