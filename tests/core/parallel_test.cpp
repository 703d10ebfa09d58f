// parallel_for: every item runs once, and the lowest failing item's exception reaches the caller.
#include "gyre/core/parallel.hpp"

#include <atomic>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

TEST_CASE("parallel_for: runs every item exactly once") {
  std::vector<std::atomic<int>> hits(1000);
  gyre::parallel_for(1000, [&](std::ptrdiff_t i) { hits[static_cast<std::size_t>(i)]++; });
  for (const auto& h : hits) CHECK(h.load() == 1);
  CHECK_NOTHROW(gyre::parallel_for(0, [](std::ptrdiff_t) { throw std::logic_error("never called"); }));
}

TEST_CASE("parallel_for: rethrows the exception of the lowest failing index") {
  CHECK_THROWS_WITH_AS(gyre::parallel_for(500,
                                          [](std::ptrdiff_t i) {
                                            if (i % 97 == 13) throw std::runtime_error("item " + std::to_string(i));
                                          }),
                       "item 13", std::runtime_error);
}
