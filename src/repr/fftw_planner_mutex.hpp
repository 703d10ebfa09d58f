#pragma once
// FFTW's planner (plan creation and destruction) is not thread safe; executing distinct plans is.
// Every Gyre file that plans FFTW transforms locks this one mutex.

#include <mutex>

namespace gyre::repr::detail {

inline std::mutex& fftw_planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace gyre::repr::detail
