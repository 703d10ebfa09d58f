// Steerable kernel bases: escnn's default parameters, the dimension of every basis in escnn.json,
// the span (projection test) of its filter cases, and steerability of the sampled kernels.

#include "gyre/nn/kernel_basis.hpp"

#include <cmath>
#include <string>

#include <Eigen/QR>
#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/repr/representation.hpp"
#include "support/escnn_gspace.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::Vector;
using gyre::nn::BasisParams;
using gyre::nn::KernelBasis;
using gyre::repr::PlanarGroup;
using gyre::repr::Representation;

// escnn's gspace names as escnn.json writes them.
PlanarGroup group_of_gspace(const std::string& name) {
  const gyre::test::EscnnGspace gspace = gyre::test::parse_escnn_gspace(name);
  if (gspace.n > 0) return gspace.flips ? PlanarGroup::dihedral(gspace.n) : PlanarGroup::cyclic(gspace.n);
  const int l = gspace.maximum_frequency >= 0 ? gspace.maximum_frequency : 0;
  return gspace.flips ? PlanarGroup::o2(l) : PlanarGroup::so2(l);
}

PlanarGroup group_of_case(const std::string& group) {
  if (group == "SO(2)") return PlanarGroup::so2(2);
  if (group == "O(2)") return PlanarGroup::o2(2);
  const int n = std::stoi(group.substr(1));
  return group[0] == 'D' ? PlanarGroup::dihedral(n) : PlanarGroup::cyclic(n);
}

int total_dim(const PlanarGroup& group, const std::vector<std::string>& out_fields,
              const std::vector<std::string>& in_fields, int k) {
  const BasisParams params = gyre::nn::default_basis_params(k);
  int dim = 0;
  for (const std::string& o : out_fields) {
    for (const std::string& i : in_fields) {
      dim += gyre::nn::cached_kernel_basis(gyre::repr::representation_by_name(group, o),
                                           gyre::repr::representation_by_name(group, i), k, params)
                 ->dim();
    }
  }
  return dim;
}

}  // namespace

TEST_CASE("kernel basis: default parameters equal escnn's for every kernel size in escnn.json") {
  const auto& table = gyre::test::reference("escnn.json")["default_basis_params"];
  for (auto it = table.begin(); it != table.end(); ++it) {
    const int k = std::stoi(it.key());
    CAPTURE(k);
    const BasisParams params = gyre::nn::default_basis_params(k);
    const auto& expected = it.value();
    REQUIRE(params.rings.size() == expected["rings"].size());
    for (std::size_t r = 0; r < params.rings.size(); ++r) {
      CHECK(params.rings[r] == doctest::Approx(expected["rings"][r].get<double>()).epsilon(1e-12));
      // escnn stores σ in float32; 1e-7 relative covers that rounding.
      CHECK(params.sigma[r] == doctest::Approx(expected["sigma"][r].get<double>()).epsilon(1e-7));
      CHECK(params.max_frequency_per_ring[r] == expected["max_frequency_per_ring"][r].get<int>());
    }
    CHECK(params.maximum_frequency == expected["maximum_frequency"].get<int>());
  }
}

TEST_CASE("kernel basis: dimension equals escnn's dim on every dimension row") {
  for (const auto& row : gyre::test::reference("escnn.json")["dimension_rows"]) {
    const std::string gspace = row["gspace"];
    const int k = row["kernel_size"];
    CAPTURE(gspace);
    CAPTURE(k);
    CAPTURE(row["in_fields"].dump());
    CAPTURE(row["out_fields"].dump());
    const PlanarGroup group = group_of_gspace(gspace);
    CHECK(total_dim(group, row["out_fields"], row["in_fields"], k) == row["dim"].get<int>());
  }
}

TEST_CASE("kernel basis: dimension equals escnn's for every irrep pair") {
  for (const auto& table : gyre::test::reference("escnn.json")["irrep_pair_dims"]) {
    const PlanarGroup group = group_of_gspace(table["gspace"]);
    const int k = table["kernel_size"];
    const auto& names = table["irreps"];
    for (std::size_t o = 0; o < names.size(); ++o) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        CAPTURE(table["gspace"].get<std::string>());
        CAPTURE(k);
        CAPTURE(names[o].get<std::string>());
        CAPTURE(names[i].get<std::string>());
        CHECK(total_dim(group, {names[o]}, {names[i]}, k) == table["dims_out_by_in"][o][i].get<int>());
      }
    }
  }
}

TEST_CASE("kernel basis: sampled bases have full rank on every dimension row") {
  for (const auto& row : gyre::test::reference("escnn.json")["dimension_rows"]) {
    if (row["in_fields"].size() != 1 || row["out_fields"].size() != 1) continue;
    const PlanarGroup group = group_of_gspace(row["gspace"]);
    const int k = row["kernel_size"];
    const auto basis = gyre::nn::cached_kernel_basis(
        gyre::repr::representation_by_name(group, row["out_fields"][0]),
        gyre::repr::representation_by_name(group, row["in_fields"][0]), k, gyre::nn::default_basis_params(k));
    CAPTURE(row.dump());
    CHECK(basis->rank() == row["rank"].get<int>());
  }
}

TEST_CASE("kernel basis: the span projection of every escnn filter case matches") {
  for (const auto& c : gyre::test::reference("escnn.json")["filter_cases"]) {
    const std::string name = c["case"];
    CAPTURE(name);
    const PlanarGroup group = group_of_case(c["group"]);
    const int k = c["kernel_size"];
    const auto basis = gyre::nn::cached_kernel_basis(
        gyre::repr::representation_by_name(group, c["out_fields"][0]),
        gyre::repr::representation_by_name(group, c["in_fields"][0]), k, gyre::nn::default_basis_params(k));
    REQUIRE(basis->dim() == c["dim"].get<int>());
    const Matrix<double>& b = basis->samples();
    Vector<double> t(b.cols());
    for (Eigen::Index i = 0; i < t.size(); ++i) t(i) = std::cos(0.5 + 1.3 * static_cast<double>(i));
    // Orthogonal projection onto the row space of B (basis-independent).
    const Eigen::ColPivHouseholderQR<Matrix<double>> qr(b.transpose());
    const Matrix<double> q = qr.householderQ() * Matrix<double>::Identity(b.cols(), qr.rank());
    const Vector<double> projected = q * (q.transpose() * t);
    const auto& expected = c["projection_test"];
    // escnn samples its basis in float32: 1e-6 relative is that precision, with margin.
    CHECK(projected.norm() / t.norm() == doctest::Approx(expected["ratio"].get<double>()).epsilon(1e-6));
    const auto& pt = expected["PT"];
    double worst = 0;
    Eigen::Index index = 0;
    for (const auto& o : pt)
      for (const auto& i : o)
        for (const auto& row : i)
          for (const auto& v : row) worst = std::max(worst, std::abs(projected(index++) - v.get<double>()));
    CHECK(index == projected.size());
    CHECK(worst <= 1e-6 * projected.norm());
  }
}
