// With umbrella_second_unit.cpp: gyre/gyre.hpp in two translation units of one program links
// (every function defined in a header is inline or a template) and works.
#include <cmath>
#include <iostream>

#include "gyre/gyre.hpp"

double quarter_turn_from_second_unit();

int main() {
  const gyre::Sphere<double> sphere(2);
  const double here = sphere.dist(gyre::Vector<double>::Unit(3, 0), gyre::Vector<double>::Unit(3, 2));
  const double there = quarter_turn_from_second_unit();
  if (here != there || std::abs(here - std::acos(0.0)) > 1e-15) {
    std::cerr << "the two units disagree: " << here << " vs " << there << "\n";
    return 1;
  }
  std::cout << "gyre.hpp in two units: ok (" << here << ")\n";
  return 0;
}
