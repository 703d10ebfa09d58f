// GroupDownsample: regular fields over C_N / D_N to their subgroup, exactly equivariant to the
// subgroup, with backward against central differences, composed with spatial pooling.

#include "gyre/nn/group_downsample.hpp"

#include <memory>

#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>

#include "gyre/check/equivariance.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/core/error.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/sequential.hpp"
#include "gyre/repr/representation.hpp"
#include "layer_zoo.hpp"
#include "support/test_support.hpp"

using gyre::nn::FieldType;
using gyre::nn::GroupDownsample;
using gyre::repr::PlanarGroup;
using gyre::repr::SubgroupFamily;

namespace {

FieldType regular_fields(const PlanarGroup& g, int count) {
  return FieldType(g, gyre::repr::regular_representation(g), count);
}

}  // namespace

TEST_CASE_TEMPLATE("GroupDownsample: output type is the subgroup's regular fields", T, float, double) {
  const GroupDownsample<T> d8(regular_fields(PlanarGroup::dihedral(8), 3), 2);
  CHECK(d8.out_type().fields("test") == regular_fields(PlanarGroup::dihedral(4), 3));
  CHECK(d8.describe() == "GroupDownsample(D8[3×regular] → D4[3×regular], rate 2, anti-aliased)");
  const GroupDownsample<T> to_rotations(regular_fields(PlanarGroup::dihedral(8), 1), 4, SubgroupFamily::kRotations,
                                        false);
  CHECK(to_rotations.out_type().fields("test") == regular_fields(PlanarGroup::cyclic(4), 1));
  CHECK(to_rotations.describe() == "GroupDownsample(D8[regular] → C4[regular], rate 4, naive)");
}

TEST_CASE_TEMPLATE("GroupDownsample: exactly equivariant to the subgroup, anti-aliased or naive", T, float, double) {
  // Subgroups whose elements are all grid symmetries (quarter turns and flips): transforms are exact.
  const T tolerance = gyre::test::tol<T>(1e-13, 1e-6f);  // a 16 × 8 matrix per pixel; no interpolation
  struct Case {
    PlanarGroup group;
    int rate;
    SubgroupFamily family;
  };
  for (const Case& c : {Case{PlanarGroup::cyclic(8), 2, SubgroupFamily::kSameFamily},
                        Case{PlanarGroup::cyclic(12), 3, SubgroupFamily::kSameFamily},
                        Case{PlanarGroup::dihedral(8), 2, SubgroupFamily::kSameFamily},
                        Case{PlanarGroup::dihedral(4), 2, SubgroupFamily::kRotations},
                        Case{PlanarGroup::dihedral(8), 4, SubgroupFamily::kRotations}}) {
    for (const bool anti_aliasing : {true, false}) {
      CAPTURE(c.group.name());
      CAPTURE(anti_aliasing);
      GroupDownsample<T> layer(regular_fields(c.group, 2), c.rate, c.family, anti_aliasing);
      const auto x = gyre::test::random_feature_map<T>(layer.in_type(), 2, 7, 7, 11);
      const PlanarGroup& h = layer.operators().sampling.subgroup;
      const auto report = gyre::check::check_equivariance(layer, x, h.elements());
      CHECK(report.max_grid_symmetry_error() <= tolerance);
      CHECK(report.rows.size() == static_cast<std::size_t>(h.order()));
    }
  }
}

TEST_CASE("GroupDownsample: backward equals central differences") {
  for (const int mode : {0, 1, 2}) {  // anti-aliased by GEMM, anti-aliased through the FFT, naive
    CAPTURE(mode);
    GroupDownsample<double> layer(
        regular_fields(PlanarGroup::dihedral(6), 2), 2, SubgroupFamily::kSameFamily, mode != 2,
        mode == 1 ? gyre::nn::DownsampleEngine::kFourier : gyre::nn::DownsampleEngine::kDense);
    const auto x = gyre::test::random_feature_map<double>(layer.in_type(), 2, 3, 4, 5);
    // A linear layer: central differences are exact up to rounding of the step (1e-6) — 1e-8 relative.
    CHECK(gyre::check::check_gradients(layer, x, 1e-6, 3).max_error() <= 1e-8);
  }
}

TEST_CASE("GroupDownsample: composes with spatial striding and stays equivariant to the subgroup") {
  gyre::nn::Sequential<double> net;
  net.add(std::make_unique<GroupDownsample<double>>(regular_fields(PlanarGroup::dihedral(8), 2), 2));
  net.add(std::make_unique<gyre::nn::PointwiseMaxPool<double>>(regular_fields(PlanarGroup::dihedral(4), 2), 2));
  const auto x = gyre::test::random_feature_map<double>(net.in_type(), 2, 8, 8, 21);
  // 2 × 2 windows tile an 8 × 8 map symmetrically under quarter turns and flips.
  const auto report = gyre::check::check_equivariance(net, x, PlanarGroup::dihedral(4).elements());
  CHECK(report.max_grid_symmetry_error() <= 1e-13);
  CHECK(net.forward(x).data.shape(2) == 4);
  CHECK(gyre::check::check_gradients(net, x, 1e-6, 5).max_error() <= 1e-7);  // max pool: no ties in N(0,1) data
}

TEST_CASE("GroupDownsample: bad input names the condition and the value") {
  const PlanarGroup d6 = PlanarGroup::dihedral(6);
  CHECK_THROWS_WITH_AS(GroupDownsample<double>(FieldType(d6, gyre::repr::trivial_representation(d6), 1), 2),
                       "gyre::GroupDownsample: needs regular fields (irrep_0,0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(GroupDownsample<double>(regular_fields(d6, 1), 4),
                       doctest::Contains("gyre::subsample_group: no subgroup of D6 at this rate"), gyre::DomainError);
  CHECK_THROWS_AS(GroupDownsample<double>(regular_fields(PlanarGroup::cyclic(6), 1), 0), gyre::DomainError);
  CHECK_THROWS_AS(GroupDownsample<double>(regular_fields(PlanarGroup::cyclic(6), 1), 1 << 30), gyre::DomainError);
  const PlanarGroup so2 = PlanarGroup::so2(3);
  CHECK_THROWS_WITH_AS(GroupDownsample<double>(FieldType(so2, gyre::repr::regular_representation(so2), 1), 2),
                       "gyre::GroupDownsample: needs a finite group (C_N or D_N) (SO(2))", gyre::DomainError);
  GroupDownsample<double> layer(regular_fields(d6, 1), 2);
  const auto wrong =
      gyre::test::random_feature_map<double>(FieldType(d6, gyre::repr::regular_representation(d6), 2), 1, 3, 3, 1);
  CHECK_THROWS_AS(static_cast<void>(layer.forward(wrong)), gyre::ShapeError);
  const auto x = gyre::test::random_feature_map<double>(layer.in_type(), 1, 3, 3, 1);
  static_cast<void>(layer.forward(x));
  CHECK_THROWS_AS(static_cast<void>(layer.backward(x)), gyre::ShapeError);  // a D6 gradient for a D3 output
  layer.discard_saved();
}

TEST_CASE_TEMPLATE("GroupDownsample: the Fourier engine equals the dense operator D = S·P", T, float, double) {
  const double tolerance = gyre::test::tol<T>(1e-13, 1e-5f);  // |G| ≤ 24 terms of size ≈ 1
  for (const PlanarGroup& g :
       {PlanarGroup::cyclic(8), PlanarGroup::cyclic(9), PlanarGroup::dihedral(6), PlanarGroup::dihedral(8)}) {
    for (const SubgroupFamily family : {SubgroupFamily::kSameFamily, SubgroupFamily::kRotations}) {
      if (family == SubgroupFamily::kRotations && !g.has_flips()) continue;
      const int rate = g.n() % 2 == 0 ? 2 : 3;
      if (family == SubgroupFamily::kRotations && rate != 2) continue;
      CAPTURE(g.name());
      GroupDownsample<T> layer(regular_fields(g, 2), rate, family, true, gyre::nn::DownsampleEngine::kFourier);
      const auto x = gyre::test::random_feature_map<T>(layer.in_type(), 2, 3, 5, 9);
      const auto y = layer.forward(x);
      const gyre::Matrix<double>& d = layer.field_map();
      const std::size_t plane = 15, g_order = static_cast<std::size_t>(d.cols()),
                        h_order = static_cast<std::size_t>(d.rows());
      double worst = 0;
      for (std::size_t block = 0; block < 4; ++block) {
        for (std::size_t i = 0; i < h_order; ++i) {
          for (std::size_t p = 0; p < plane; ++p) {
            double expected = 0;
            for (std::size_t j = 0; j < g_order; ++j) {
              expected += d(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) *
                          static_cast<double>(x.data.data()[(block * g_order + j) * plane + p]);
            }
            worst = std::max(
                worst, std::abs(static_cast<double>(y.data.data()[(block * h_order + i) * plane + p]) - expected));
          }
        }
      }
      CHECK(worst <= tolerance);
      layer.discard_saved();
    }
  }
}

TEST_CASE("check_equivariance: by default checks the output's subgroup, and refuses elements outside it") {
  GroupDownsample<double> layer(regular_fields(PlanarGroup::dihedral(8), 1), 2);
  const auto x = gyre::test::random_feature_map<double>(layer.in_type(), 1, 5, 5, 3);
  const auto report = gyre::check::check_equivariance(layer, x);
  CHECK(report.rows.size() == 8);  // D4's elements, not D8's 16
  CHECK(report.max_grid_symmetry_error() <= 1e-13);
  const double eighth_turn = boost::math::constants::pi<double>() / 4;
  CHECK_THROWS_WITH_AS(
      static_cast<void>(gyre::check::check_equivariance(layer, x, {gyre::repr::PlanarElement{0, eighth_turn}})),
      "gyre::check_equivariance: element is not in both the input's and the output's group (D8, D4) (rotation 45°)",
      gyre::DomainError);
}
