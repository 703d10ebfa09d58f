// Steerable kernel bases: escnn's default parameters, and the dimension and rank of every basis in
// escnn.json (the filter cases are in escnn_filter_cases_test.cpp). Every loop over the file counts
// what it compared and checks the count against the file.

#include "gyre/nn/kernel_basis.hpp"

#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/nn/field_kernel_basis.hpp"
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

gyre::nn::FieldType field_type(const PlanarGroup& group, const nlohmann::json& names) {
  std::vector<Representation> fields;
  for (const auto& n : names) fields.push_back(gyre::repr::representation_by_name(group, n.get<std::string>()));
  return gyre::nn::FieldType(group, fields);
}

}  // namespace

TEST_CASE("kernel basis: default parameters equal escnn's for every kernel size in escnn.json") {
  const auto& table = gyre::test::reference("escnn.json")["default_basis_params"];
  std::size_t sizes = 0;
  for (auto it = table.begin(); it != table.end(); ++it) {
    const int k = std::stoi(it.key());
    CAPTURE(k);
    const BasisParams params = gyre::nn::default_basis_params(k);
    const auto& expected = it.value();
    REQUIRE(params.rings.size() == expected["rings"].size());
    for (std::size_t r = 0; r < params.rings.size(); ++r) {
      // Radii (k−1)/2·i/(n−1) are exact in double; 1e-12 covers the file's 10 significant digits.
      CHECK(params.rings[r] == doctest::Approx(expected["rings"][r].get<double>()).epsilon(1e-12));
      // escnn stores σ in float32; 1e-7 relative covers that rounding.
      CHECK(params.sigma[r] == doctest::Approx(expected["sigma"][r].get<double>()).epsilon(1e-7));
      CHECK(params.max_frequency_per_ring[r] == expected["max_frequency_per_ring"][r].get<int>());
    }
    CHECK(params.maximum_frequency == expected["maximum_frequency"].get<int>());
    ++sizes;
  }
  CHECK(sizes == table.size());
  CHECK(sizes == 5);  // k = 3, 5, 7, 9, 11
}

TEST_CASE("kernel basis: dimension equals escnn's dim on every dimension row") {
  const auto& rows = gyre::test::reference("escnn.json")["dimension_rows"];
  std::size_t compared = 0;
  for (const auto& row : rows) {
    const std::string gspace = row["gspace"];
    const int k = row["kernel_size"];
    CAPTURE(gspace);
    CAPTURE(k);
    CAPTURE(row["in_fields"].dump());
    CAPTURE(row["out_fields"].dump());
    const PlanarGroup group = group_of_gspace(gspace);
    CHECK(total_dim(group, row["out_fields"], row["in_fields"], k) == row["dim"].get<int>());
    ++compared;
  }
  CHECK(compared == rows.size());
  CHECK(compared == 124);  // escnn.json's dimension rows
}

TEST_CASE("kernel basis: dimension equals escnn's for every irrep pair") {
  const auto& tables = gyre::test::reference("escnn.json")["irrep_pair_dims"];
  std::size_t table_count = 0;
  std::size_t cells = 0;
  std::size_t expected_cells = 0;
  for (const auto& table : tables) {
    const PlanarGroup group = group_of_gspace(table["gspace"]);
    const int k = table["kernel_size"];
    const auto& names = table["irreps"];
    REQUIRE(table["dims_out_by_in"].size() == names.size());
    expected_cells += names.size() * names.size();
    for (std::size_t o = 0; o < names.size(); ++o) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        CAPTURE(table["gspace"].get<std::string>());
        CAPTURE(k);
        CAPTURE(names[o].get<std::string>());
        CAPTURE(names[i].get<std::string>());
        CHECK(total_dim(group, {names[o]}, {names[i]}, k) == table["dims_out_by_in"][o][i].get<int>());
        ++cells;
      }
    }
    ++table_count;
  }
  CHECK(table_count == tables.size());
  CHECK(table_count == 15);  // escnn.json's irrep-pair tables
  CHECK(cells == expected_cells);
  CHECK(cells > table_count);
}

TEST_CASE("kernel basis: the sampled basis has escnn's rank on every dimension row") {
  const auto& rows = gyre::test::reference("escnn.json")["dimension_rows"];
  std::size_t compared = 0;
  for (const auto& row : rows) {
    CAPTURE(row.dump());
    const PlanarGroup group = group_of_gspace(row["gspace"]);
    const int k = row["kernel_size"];
    // Σ over field pairs of the pair's numerical rank: escnn's per-block rank times the block counts.
    const auto basis =
        gyre::nn::cached_field_kernel_basis(field_type(group, row["out_fields"]), field_type(group, row["in_fields"]),
                                            k, gyre::nn::default_basis_params(k));
    CHECK(basis->rank() == row["rank"].get<int>());
    ++compared;
  }
  CHECK(compared == rows.size());
  CHECK(compared == 124);
}

TEST_CASE("kernel basis: one cache — equal requests share a basis, any difference gets its own") {
  const PlanarGroup c4 = PlanarGroup::cyclic(4);
  const Representation regular = gyre::repr::representation_by_name(c4, "regular");
  const Representation trivial = gyre::repr::representation_by_name(c4, "trivial");
  const BasisParams params = gyre::nn::default_basis_params(5);
  const auto basis = gyre::nn::cached_kernel_basis(regular, trivial, 5, params);
  CHECK(gyre::nn::cached_kernel_basis(regular, trivial, 5, params).get() == basis.get());
  CHECK(gyre::nn::cached_kernel_basis(trivial, regular, 5, params).get() != basis.get());
  CHECK(gyre::nn::cached_kernel_basis(regular, trivial, 5, params, 2).get() != basis.get());
  BasisParams wider = params;
  wider.sigma[0] = std::nextafter(wider.sigma[0], 10.0);  // one ulp: a different basis
  CHECK(gyre::nn::cached_kernel_basis(regular, trivial, 5, wider).get() != basis.get());

  const gyre::nn::FieldType two_regular(c4, regular, 2), one_trivial(c4, trivial, 1);
  const auto fields = gyre::nn::cached_field_kernel_basis(two_regular, one_trivial, 5, params);
  CHECK(gyre::nn::cached_field_kernel_basis(two_regular, one_trivial, 5, params).get() == fields.get());
  // Two fields vs three: the same representations, a different request.
  const gyre::nn::FieldType three_regular(c4, regular, 3);
  CHECK(gyre::nn::cached_field_kernel_basis(three_regular, one_trivial, 5, params).get() != fields.get());
}
