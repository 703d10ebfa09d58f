// escnn.json's eight filter cases: the span of Gyre's sampled basis against escnn's (projection of a
// fixed tensor, principal angles with escnn's sampled basis), and the per-element equivariance errors
// escnn measured, recomputed by Gyre on the same input and filter rules.

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>

#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/field_type.hpp"
#include "gyre/nn/kernel_basis.hpp"
#include "gyre/nn/transform.hpp"
#include "gyre/repr/representation.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::Vector;
using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

constexpr double kPi = boost::math::constants::pi<double>();
constexpr std::size_t kFilterCases = 8;  // escnn.json holds eight filter cases
constexpr std::size_t kSavedBases = 3;   // of which three carry escnn's sampled basis

PlanarGroup group_of_case(const std::string& group) {
  if (group == "SO(2)") return PlanarGroup::so2(2);
  if (group == "O(2)") return PlanarGroup::o2(2);
  const int n = std::stoi(group.substr(1));
  return group[0] == 'D' ? PlanarGroup::dihedral(n) : PlanarGroup::cyclic(n);
}

struct FilterCase {
  PlanarGroup group;
  FieldType in, out;
  int k;
  std::shared_ptr<const gyre::nn::KernelBasis> basis;
};

FilterCase load(const nlohmann::json& c) {
  const PlanarGroup group = group_of_case(c["group"]);
  const auto out = gyre::repr::representation_by_name(group, c["out_fields"][0]);
  const auto in = gyre::repr::representation_by_name(group, c["in_fields"][0]);
  const int k = c["kernel_size"];
  return {group, FieldType(group, {in}), FieldType(group, {out}), k,
          gyre::nn::cached_kernel_basis(out, in, k, gyre::nn::default_basis_params(k))};
}

// An orthonormal basis (columns) of the row space of b.
Matrix<double> row_space(const Matrix<double>& b) {
  const Eigen::ColPivHouseholderQR<Matrix<double>> qr(b.transpose());
  return qr.householderQ() * Matrix<double>::Identity(b.cols(), qr.rank());
}

xt::xtensor<double, 4> as_filter(const Vector<double>& flat, const FilterCase& f) {
  xt::xtensor<double, 4> a =
      xt::zeros<double>({std::size_t(f.out.size()), std::size_t(f.in.size()), std::size_t(f.k), std::size_t(f.k)});
  std::copy(flat.data(), flat.data() + flat.size(), a.data());
  return a;
}

// escnn's equivariance_errors: x_flat[i] = sin(1 + 0.731·i) over (1, C, 33, 33), conv2d with padding
// k//2, rel_err = max|conv(g·x) − g·conv(x)| / max|conv(x)|, one number per element of the file.
std::vector<double> equivariance_errors(const xt::xtensor<double, 4>& filter, const FilterCase& f,
                                        const nlohmann::json& elements) {
  xt::xtensor<double, 4> x =
      xt::zeros<double>({std::size_t(1), std::size_t(f.in.size()), std::size_t(33), std::size_t(33)});
  for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = std::sin(1.0 + 0.731 * static_cast<double>(i));
  const gyre::nn::Conv2dGeometry geometry{1, f.k / 2, 1};
  const auto conv = [&](const xt::xtensor<double, 4>& z) { return gyre::nn::conv2d(z, filter, {}, geometry); };
  const auto y = conv(x);
  double scale = 0;
  for (double v : y) scale = std::max(scale, std::abs(v));
  std::vector<double> errors;
  for (const auto& e : elements) {
    // The file rounds θ to 10 digits (3e-10 rad off): snap to the exact multiple of 90° it names.
    const double theta = e["theta"].get<double>();
    const double snapped = std::round(theta / (kPi / 2)) * (kPi / 2);
    REQUIRE(std::abs(theta - snapped) <= 1e-9);
    const gyre::repr::PlanarElement g{e["flip"].get<int>(), snapped};
    const auto a = conv(gyre::nn::transform(GeometricTensor<double>(f.in, x), g).data);
    const auto b = gyre::nn::transform(GeometricTensor<double>(f.out, y), g).data;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a.data()[i] - b.data()[i]));
    errors.push_back(worst / scale);
  }
  return errors;
}

int grid_symmetries(const PlanarGroup& group) {
  const int rotations = (group.is_finite() && group.n() % 4 != 0) ? (group.n() % 2 == 0 ? 2 : 1) : 4;
  return rotations * (group.has_flips() ? 2 : 1);
}

}  // namespace

TEST_CASE("escnn filter cases: the span projection of a fixed tensor matches escnn's") {
  std::size_t cases = 0;
  for (const auto& c : gyre::test::reference("escnn.json")["filter_cases"]) {
    const std::string name = c["case"];
    CAPTURE(name);
    const FilterCase f = load(c);
    REQUIRE(f.basis->dim() == c["dim"].get<int>());
    CHECK(f.basis->rank() == c["rank"].get<int>());
    const Matrix<double>& b = f.basis->samples();
    Vector<double> t(b.cols());
    for (Eigen::Index i = 0; i < t.size(); ++i) t(i) = std::cos(0.5 + 1.3 * static_cast<double>(i));
    const Matrix<double> q = row_space(b);  // orthogonal projection onto the span: basis-independent
    const Vector<double> projected = q * (q.transpose() * t);
    const auto& expected = c["projection_test"];
    // escnn samples its basis in float32: 1e-6 relative is that precision, with margin.
    CHECK(projected.norm() / t.norm() == doctest::Approx(expected["ratio"].get<double>()).epsilon(1e-6));
    CHECK(projected.norm() == doctest::Approx(expected["norm_PT"].get<double>()).epsilon(1e-6));
    // T itself is computed identically by both: only the file's 10 significant digits differ.
    CHECK(t.norm() == doctest::Approx(expected["norm_T"].get<double>()).epsilon(1e-9));
    const auto& pt = expected["PT"];
    double worst = 0;
    Eigen::Index index = 0;
    for (const auto& o : pt)
      for (const auto& i : o)
        for (const auto& row : i)
          for (const auto& v : row) worst = std::max(worst, std::abs(projected(index++) - v.get<double>()));
    CHECK(index == projected.size());
    CHECK(worst <= 1e-6 * projected.norm());
    ++cases;
  }
  CHECK(cases == kFilterCases);
}

TEST_CASE("escnn filter cases: Gyre's sampled basis spans escnn's, principal angles at float32 precision") {
  std::size_t bases = 0;
  for (const auto& c : gyre::test::reference("escnn.json")["filter_cases"]) {
    if (!c.contains("basis")) continue;
    CAPTURE(c["case"].get<std::string>());
    const FilterCase f = load(c);
    const auto& values = c["basis"]["values"];
    REQUIRE(values.size() == static_cast<std::size_t>(f.basis->dim()));
    Matrix<double> theirs(f.basis->dim(), f.basis->samples().cols());
    Eigen::Index count = 0;
    for (std::size_t e = 0; e < values.size(); ++e) {
      Eigen::Index col = 0;
      for (const auto& o : values[e])
        for (const auto& i : o)
          for (const auto& row : i)
            for (const auto& v : row) theirs(static_cast<Eigen::Index>(e), col++) = v.get<double>();
      REQUIRE(col == theirs.cols());
      count += col;
    }
    CHECK(count == theirs.size());
    const Matrix<double> q_ours = row_space(f.basis->samples());
    const Matrix<double> q_theirs = row_space(theirs);
    REQUIRE(q_ours.cols() == q_theirs.cols());
    // sin of the largest principal angle, both ways: ‖(I − P_ours)Q_theirs‖₂ and the converse.
    const double sin_a =
        Eigen::JacobiSVD<Matrix<double>>(q_theirs - q_ours * (q_ours.transpose() * q_theirs)).singularValues()(0);
    const double sin_b =
        Eigen::JacobiSVD<Matrix<double>>(q_ours - q_theirs * (q_theirs.transpose() * q_ours)).singularValues()(0);
    // escnn's values are float32 (6e-8 relative) rounded to 8 decimals; divided by its smallest
    // relative singular value (≥ 0.58 here): ≤ 2e-7, so 1e-6 passes and a different span fails.
    CHECK(sin_a <= 1e-6);
    CHECK(sin_b <= 1e-6);
    ++bases;
  }
  CHECK(bases == kSavedBases);
}

TEST_CASE("escnn filter cases: per-element equivariance errors, recomputed on escnn's input") {
  std::size_t cases = 0;
  std::size_t elements = 0;
  for (const auto& c : gyre::test::reference("escnn.json")["filter_cases"]) {
    CAPTURE(c["case"].get<std::string>());
    const FilterCase f = load(c);
    const auto& projection = c["projection_test"];
    const auto& theirs_pt = projection["equivariance_PT_exact_elements"];
    const auto& theirs_sin = c["sin_weights"]["equivariance_exact_elements"];
    // escnn lists the grid symmetries of the group: as many as Gyre counts.
    REQUIRE(theirs_pt.size() == static_cast<std::size_t>(grid_symmetries(f.group)));
    REQUIRE(theirs_sin.size() == theirs_pt.size());
    const Matrix<double>& b = f.basis->samples();
    Vector<double> t(b.cols());
    for (Eigen::Index i = 0; i < t.size(); ++i) t(i) = std::cos(0.5 + 1.3 * static_cast<double>(i));
    const Matrix<double> q = row_space(b);
    const auto pt = as_filter(q * (q.transpose() * t), f);
    // The same filter rule (PT) and input as escnn: PT is steerable, so only rounding remains in
    // Gyre's double sampling (≈ 1e-15), where escnn's float32 basis leaves ≈ 1e-7.
    const std::vector<double> ours_pt = equivariance_errors(pt, f, theirs_pt);
    for (std::size_t e = 0; e < ours_pt.size(); ++e) {
      CAPTURE(theirs_pt[e]["element"].get<std::string>());
      const double escnn_error = theirs_pt[e]["rel_err"].get<double>();
      CHECK(ours_pt[e] <= 1e-13);
      CHECK(escnn_error <= 1e-6);  // escnn's own filter: float32-exact
      CHECK(ours_pt[e] <= escnn_error + 1e-15);
      ++elements;
    }
    // sin_weights: the same rule w_i = sin(i+1) (float32), but on Gyre's basis, so a different filter
    // (basis-dependent); both must be exactly steerable to their own precision.
    Vector<double> w(b.rows());
    for (Eigen::Index i = 0; i < w.size(); ++i) w(i) = static_cast<float>(std::sin(static_cast<double>(i + 1)));
    const std::vector<double> ours_sin = equivariance_errors(as_filter(b.transpose() * w, f), f, theirs_sin);
    for (std::size_t e = 0; e < ours_sin.size(); ++e) {
      CHECK(ours_sin[e] <= 1e-13);
      CHECK(theirs_sin[e]["rel_err"].get<double>() <= 1e-6);
    }
    // The unconstrained T is far from steerable: both libraries measure the same worst error, which
    // pins the grid action (rot90, flip, ρ) to escnn's. The file keeps 10 significant digits.
    const std::vector<double> ours_t = equivariance_errors(as_filter(t, f), f, theirs_pt);
    const double worst_t = *std::max_element(ours_t.begin(), ours_t.end());
    CHECK(worst_t == doctest::Approx(projection["equivariance_T_exact_elements_max_rel"].get<double>()).epsilon(1e-8));
    // ‖conv(x, PT)‖: PT agrees with escnn's to its float32 precision (see the projection test).
    const auto y = gyre::nn::conv2d(
        [&] {
          xt::xtensor<double, 4> x =
              xt::zeros<double>({std::size_t(1), std::size_t(f.in.size()), std::size_t(33), std::size_t(33)});
          for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = std::sin(1.0 + 0.731 * static_cast<double>(i));
          return x;
        }(),
        pt, {}, {1, f.k / 2, 1});
    double norm2 = 0;
    for (double v : y) norm2 += v * v;
    CHECK(std::sqrt(norm2) == doctest::Approx(projection["conv_output_norm_PT"].get<double>()).epsilon(1e-6));
    ++cases;
  }
  CHECK(cases == kFilterCases);
  CHECK(elements == 4 + 4 + 4 + 8 + 8 + 4 + 4 + 8);  // grid symmetries of C4, C4, C8, D4, D4, SO(2), SO(2), O(2)
}
