#include "gyre/gyre.hpp"

double quarter_turn_from_second_unit() {
  const gyre::Sphere<double> sphere(2);
  return sphere.dist(gyre::Vector<double>::Unit(3, 0), gyre::Vector<double>::Unit(3, 2));
}
