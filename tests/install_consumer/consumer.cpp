// Built against the installed package by tests/install_consumer/run.cmake: geometry headers,
// the compiled registry, and the error types must all be reachable through gyre::gyre.
#include <cmath>
#include <iostream>

#include <gyre/core/error.hpp>
#include <gyre/geometry/any_manifold.hpp>
#include <sphere/sphere.hpp>

int main() {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> x = gyre::Vector<double>::Unit(3, 0);
  const gyre::Vector<double> y = gyre::Vector<double>::Unit(3, 1);
  const double direct = sphere.dist(x, y);
  const double by_name = gyre::make_space("sphere", {{"n", 2}}).dist(x, y);
  const double quarter_turn = std::acos(0.0);
  if (std::abs(direct - quarter_turn) > 1e-15 || std::abs(by_name - quarter_turn) > 1e-15) {
    std::cerr << "wrong distance " << direct << " " << by_name << "\n";
    return 1;
  }
  try {
    (void)sphere.log(x, 2 * y);
    std::cerr << "off-manifold point accepted\n";
    return 1;
  } catch (const gyre::DomainError& error) {
    std::cout << "consumer ok: " << error.what() << "\n";
  }
  return 0;
}
