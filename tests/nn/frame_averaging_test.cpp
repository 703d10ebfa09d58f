// Frame averaging: the frames' laws (F(g·X) = g·F(X)), exact invariance and equivariance of an
// arbitrary nonlinear backbone for O(d), SO(d), E(d), SE(d), d = 2, 3, the degenerate clouds where
// the reference loses invariance, backward against central differences, and bad input.

#include "gyre/nn/frame_averaging.hpp"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "gyre/check/gradient_check.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/sequential.hpp"
#include "support/test_support.hpp"

using gyre::Matrix;
using gyre::Vector;
using gyre::nn::FrameAveraging;
using gyre::nn::FrameGroup;
using gyre::nn::FrameOutput;
using gyre::nn::GeometricTensor;

namespace {

constexpr FrameGroup kGroups[] = {FrameGroup::kO, FrameGroup::kSO, FrameGroup::kE, FrameGroup::kSE};

bool has_translations(FrameGroup g) { return g == FrameGroup::kE || g == FrameGroup::kSE; }

// A nonlinear, parametrised backbone with no symmetry at all: y = W₂·tanh(W₁·vec(x) + b₁), shaped
// as `out`. Any module works; this one is small enough for finite differences.
template <class T>
class TanhNet : public gyre::nn::Module<T> {
 public:
  TanhNet(gyre::nn::TensorType in, gyre::nn::TensorType out, int hidden, std::uint64_t seed)
      : in_(std::move(in)), out_(std::move(out)) {
    std::size_t n_in = static_cast<std::size_t>(in_.channels()), n_out = static_cast<std::size_t>(out_.channels());
    for (const std::size_t e : in_.item_shape()) n_in *= e;
    for (const std::size_t e : out_.item_shape()) n_out *= e;
    gyre::Rng rng(seed);
    const auto h = static_cast<std::size_t>(hidden);
    w1_.value = xt::zeros<T>({h, n_in});
    b1_.value = xt::zeros<T>({h});
    w2_.value = xt::zeros<T>({n_out, h});
    for (T& v : w1_.value) v = rng.normal<T>() / T(2);
    for (T& v : b1_.value) v = rng.normal<T>() / T(2);
    for (T& v : w2_.value) v = rng.normal<T>();
    for (auto* p : {&w1_, &b1_, &w2_}) p->grad = xt::zeros_like(p->value);
  }
  GeometricTensor<T> forward(const GeometricTensor<T>& x) override {
    const std::size_t batch = x.batch(), n_in = w1_.value.shape()[1], h = w1_.value.shape()[0];
    const std::size_t n_out = w2_.value.shape()[0];
    std::vector<std::size_t> shape{batch, static_cast<std::size_t>(out_.channels())};
    for (const std::size_t e : out_.item_shape()) shape.push_back(e);
    xt::xarray<T> y = xt::zeros<T>(shape);
    xt::xarray<T> hidden = xt::zeros<T>({batch, h});
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t j = 0; j < h; ++j) {
        T s = b1_.value(j);
        for (std::size_t i = 0; i < n_in; ++i) s += w1_.value(j, i) * x.data.data()[b * n_in + i];
        hidden(b, j) = std::tanh(s);
      }
      for (std::size_t o = 0; o < n_out; ++o) {
        T s = 0;
        for (std::size_t j = 0; j < h; ++j) s += w2_.value(o, j) * hidden(b, j);
        y.data()[b * n_out + o] = s;
      }
    }
    saved_.push({x.data, hidden});
    return GeometricTensor<T>(out_, std::move(y));
  }
  GeometricTensor<T> backward(const GeometricTensor<T>& g) override {
    const auto& [x, hidden] = saved_.top("TanhNet::backward", "TanhNet");
    const std::size_t batch = hidden.shape()[0], h = hidden.shape()[1], n_in = w1_.value.shape()[1];
    const std::size_t n_out = w2_.value.shape()[0];
    xt::xarray<T> dx = xt::zeros_like(x);
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t j = 0; j < h; ++j) {
        T s = 0;
        for (std::size_t o = 0; o < n_out; ++o) {
          s += w2_.value(o, j) * g.data.data()[b * n_out + o];
          w2_.grad(o, j) += g.data.data()[b * n_out + o] * hidden(b, j);
        }
        const T pre = s * (1 - hidden(b, j) * hidden(b, j));
        b1_.grad(j) += pre;
        for (std::size_t i = 0; i < n_in; ++i) {
          w1_.grad(j, i) += pre * x.data()[b * n_in + i];
          dx.data()[b * n_in + i] += pre * w1_.value(j, i);
        }
      }
    }
    saved_.drop();
    return GeometricTensor<T>(in_, std::move(dx));
  }
  std::vector<gyre::nn::Parameter<T>*> parameters() override { return {&w1_, &b1_, &w2_}; }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return in_; }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return out_; }
  [[nodiscard]] std::string describe() const override { return "TanhNet"; }
  [[nodiscard]] std::size_t pending_calls() const override { return saved_.size(); }
  void discard_saved() override { saved_.clear(); }

 private:
  struct Saved {
    xt::xarray<T> x, hidden;
  };
  gyre::nn::TensorType in_, out_;
  gyre::nn::Parameter<T> w1_, b1_, w2_;
  gyre::nn::SavedCalls<Saved> saved_;
};

struct Isometry {
  Matrix<double> rotation;
  Vector<double> translation;
};

// A random element of the group: Q from the QR of a Gaussian matrix (sign-fixed, so Haar on O(d)),
// det Q = +1 for SO/SE, b ~ N(0, 4) for E/SE.
Isometry random_isometry(FrameGroup group, int d, gyre::Rng& rng) {
  const Matrix<double> a = rng.normal_matrix<double>(d, d);
  const Eigen::HouseholderQR<Matrix<double>> qr(a);
  Matrix<double> q = qr.householderQ() * Matrix<double>::Identity(d, d);
  const Matrix<double> r = qr.matrixQR().triangularView<Eigen::Upper>();
  for (int i = 0; i < d; ++i) {
    if (r(i, i) < 0) q.col(i) *= -1;
  }
  if ((group == FrameGroup::kSO || group == FrameGroup::kSE) && q.determinant() < 0) q.col(0) *= -1;
  Vector<double> b = Vector<double>::Zero(d);
  if (has_translations(group)) b = 2 * rng.normal_matrix<double>(d, 1);
  return {q, b};
}

// Channel 0 points move by x ↦ Qx + b, other channels (vectors) by v ↦ Qv.
template <class T>
GeometricTensor<T> act(const Isometry& g, const GeometricTensor<T>& x, bool translate_channel0 = true) {
  GeometricTensor<T> y = x;
  const std::size_t channels = x.data.shape()[1], p = x.data.shape()[2], d = x.data.shape()[3];
  for (std::size_t b = 0; b < x.data.shape()[0]; ++b) {
    for (std::size_t c = 0; c < channels; ++c) {
      for (std::size_t i = 0; i < p; ++i) {
        for (std::size_t r = 0; r < d; ++r) {
          double s = c == 0 && translate_channel0 ? g.translation(static_cast<Eigen::Index>(r)) : 0.0;
          for (std::size_t k = 0; k < d; ++k) {
            s += g.rotation(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) *
                 static_cast<double>(x.data(b, c, i, k));
          }
          y.data(b, c, i, r) = static_cast<T>(s);
        }
      }
    }
  }
  return y;
}

template <class T>
GeometricTensor<T> random_clouds(int batch, int channels, int points, int d, std::uint64_t seed) {
  gyre::Rng rng(seed);
  xt::xarray<T> data = xt::zeros<T>({static_cast<std::size_t>(batch), static_cast<std::size_t>(channels),
                                     static_cast<std::size_t>(points), static_cast<std::size_t>(d)});
  for (T& v : data) v = rng.normal<T>();
  return GeometricTensor<T>(gyre::nn::point_cloud_type(channels, points, d), std::move(data));
}

template <class T>
GeometricTensor<T> clouds_from(const std::vector<Matrix<double>>& clouds) {
  const auto p = static_cast<std::size_t>(clouds.front().rows()), d = static_cast<std::size_t>(clouds.front().cols());
  xt::xarray<T> data = xt::zeros<T>({clouds.size(), std::size_t{1}, p, d});
  for (std::size_t b = 0; b < clouds.size(); ++b) {
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t k = 0; k < d; ++k) {
        data(b, 0, i, k) = static_cast<T>(clouds[b](static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)));
      }
    }
  }
  return GeometricTensor<T>(gyre::nn::point_cloud_type(1, static_cast<int>(p), static_cast<int>(d)), std::move(data));
}

template <class T>
double relative_gap(const xt::xarray<T>& a, const xt::xarray<T>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += std::pow(static_cast<double>(a.data()[i]) - static_cast<double>(b.data()[i]), 2);
    norm += std::pow(static_cast<double>(b.data()[i]), 2);
  }
  return std::sqrt(diff / norm);
}

template <class T>
std::unique_ptr<FrameAveraging<T>> make_averaged(FrameGroup group, FrameOutput output, int channels, int points, int d,
                                                 std::uint64_t seed) {
  const gyre::nn::TensorType in = gyre::nn::point_cloud_type(channels, points, d);
  const gyre::nn::TensorType out = output == FrameOutput::kInvariant
                                       ? gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{3, {}})
                                       : gyre::nn::point_cloud_type(channels, points, d);
  return std::make_unique<FrameAveraging<T>>(std::make_shared<TanhNet<T>>(in, out, 6, seed), group, output);
}

Matrix<double> regular_polygon(int n, double radius, double phase) {
  const double two_pi = 2 * boost::math::constants::pi<double>();
  Matrix<double> x(n, 2);
  for (int i = 0; i < n; ++i)
    x.row(i) << radius * std::cos(phase + two_pi * i / n), radius * std::sin(phase + two_pi * i / n);
  return x;
}

Matrix<double> cube() {
  Matrix<double> x(8, 3);
  for (int i = 0; i < 8; ++i) x.row(i) << (i & 1 ? 1 : -1), (i & 2 ? 1 : -1), (i & 4 ? 1 : -1);
  return x;
}

}  // namespace

TEST_CASE("point_frame: sizes, orthogonality, orientation and eigenvectors") {
  for (const int d : {2, 3}) {
    for (const FrameGroup group : kGroups) {
      CAPTURE(d);
      const std::string group_name = gyre::nn::frame_group_name(group);
      CAPTURE(group_name);
      gyre::Rng rng(gyre::test::seeds(1).front());
      const gyre::nn::PointFrame frame = gyre::nn::point_frame(group, rng.normal_matrix<double>(7, d));
      const bool oriented = group == FrameGroup::kSO || group == FrameGroup::kSE;
      CHECK(frame.rotations.size() == static_cast<std::size_t>(oriented ? 1 << (d - 1) : 1 << d));
      CHECK_FALSE(frame.degenerate);
      for (const Matrix<double>& r : frame.rotations) {
        CHECK((r.transpose() * r - Matrix<double>::Identity(d, d)).norm() <= 1e-14);
        if (oriented) CHECK(r.determinant() > 0);
        // Each column is ± an eigenvector, in decreasing eigenvalue order.
        CHECK((frame.eigenvectors.transpose() * r).cwiseAbs().isIdentity(1e-14));
      }
    }
  }
}

TEST_CASE("point_frame: F(g·X) = g·F(X), as sets of canonical clouds, on 200 seeded cases") {
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const int d = 2 + static_cast<int>(seed % 2);
    const FrameGroup group = kGroups[seed % 4];
    const Matrix<double> x = rng.normal_matrix<double>(3 + static_cast<int>(seed % 5), d);
    const Isometry g = random_isometry(group, d, rng);
    const Matrix<double> gx = (x * g.rotation.transpose()).rowwise() + g.translation.transpose();
    const auto f = gyre::nn::point_frame(group, x), fg = gyre::nn::point_frame(group, gx);
    REQUIRE(f.rotations.size() == fg.rotations.size());
    for (const Matrix<double>& rg : fg.rotations) {
      const Matrix<double> canonical_g = (gx.rowwise() - fg.centre.transpose()) * rg;
      double best = 1e300;
      for (const Matrix<double>& r : f.rotations) {
        best = std::min(best, (canonical_g - (x.rowwise() - f.centre.transpose()) * r).norm());
      }
      // Eigenvectors of a random 3-point scatter have gaps ≳ 1e-3 λ: 1e-10 relative to ‖X‖.
      CHECK(best <= 1e-10 * (1 + x.norm()));
    }
  }
}

TEST_CASE_TEMPLATE("FrameAveraging: an arbitrary backbone becomes exactly invariant or equivariant", T, float, double) {
  // Double: rounding of the frame (eigenvectors with gaps ≳ 1e-3) and of the backbone: 1e-12. Float
  // data is framed in double but the backbone runs in float: 1e-4.
  const double tolerance = gyre::test::tol<T>(1e-12, 1e-4f);
  for (const int d : {2, 3}) {
    for (const FrameGroup group : kGroups) {
      for (const FrameOutput output : {FrameOutput::kInvariant, FrameOutput::kVectors, FrameOutput::kPositions}) {
        if (output == FrameOutput::kPositions && !has_translations(group)) continue;
        CAPTURE(d);
        const std::string group_name = gyre::nn::frame_group_name(group);
        CAPTURE(group_name);
        CAPTURE(static_cast<int>(output));
        auto net = make_averaged<T>(group, output, 2, 5, d, 7);
        for (const std::uint64_t seed : gyre::test::seeds(10)) {
          CAPTURE(seed);
          gyre::Rng rng(seed);
          const auto x = random_clouds<T>(3, 2, 5, d, seed);
          const Isometry g = random_isometry(group, d, rng);
          const gyre::nn::NoGrad no_grad;
          const auto y = net->forward(x);
          const auto y_of_gx = net->forward(act(g, x));
          const auto expected = output == FrameOutput::kInvariant ? y : act(g, y, output == FrameOutput::kPositions);
          CHECK(relative_gap(y_of_gx.data, expected.data) <= tolerance);
        }
      }
    }
  }
}

TEST_CASE("FrameAveraging: degenerate spectra (regular polygons, cubes) keep exact invariance") {
  // The reference's frame takes whatever basis the eigensolver returns for a tied eigenspace; Gyre's
  // rule takes the axes from the points of largest projection. Reported: the invariance error of both.
  struct Shape {
    std::string name;
    Matrix<double> points;
  };
  std::vector<Shape> shapes;
  for (int n = 3; n <= 8; ++n) shapes.push_back({std::to_string(n) + "-gon", regular_polygon(n, 1.5, 0.3)});
  Matrix<double> square3(4, 3);
  square3 << 1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 0;  // Σ = diag(2, 2, 0): a tied block and a simple one
  shapes.push_back({"cube", cube()});
  shapes.push_back({"square in ℝ³", square3});
  Matrix<double> line(3, 3);
  line << 0, 0, 1, 0, 0, 2, 0, 0, -3;  // the null space of Σ is a tied 2-d block
  shapes.push_back({"line in ℝ³", line});
  for (const Shape& shape : shapes) {
    for (const FrameGroup group : kGroups) {
      CAPTURE(shape.name);
      const std::string group_name = gyre::nn::frame_group_name(group);
      CAPTURE(group_name);
      const int d = static_cast<int>(shape.points.cols());
      const auto frame = gyre::nn::point_frame(group, shape.points);
      CHECK(frame.degenerate);
      auto net = make_averaged<double>(group, FrameOutput::kInvariant, 1, static_cast<int>(shape.points.rows()), d, 3);
      double worst = 0;
      for (const std::uint64_t seed : gyre::test::seeds(20)) {
        gyre::Rng rng(seed);
        const Isometry g = random_isometry(group, d, rng);
        const Matrix<double> gx = (shape.points * g.rotation.transpose()).rowwise() + g.translation.transpose();
        const gyre::nn::NoGrad no_grad;
        const auto y = net->forward(clouds_from<double>({shape.points, gx}));
        worst = std::max(
            worst, relative_gap(xt::xarray<double>(xt::view(y.data, 1)), xt::xarray<double>(xt::view(y.data, 0))));
      }
      MESSAGE(shape.name << " under " << std::string(gyre::nn::frame_group_name(group)) << "(" << d
                         << "): |F| = " << frame.rotations.size() << ", invariance error " << worst);
      CHECK(worst <= 1e-12);  // rounding only: the frame is a union of exact symmetries
    }
  }
  // A regular n-gon gets its own dihedral group: 2n elements under O(2), n under SO(2).
  CHECK(gyre::nn::point_frame(FrameGroup::kO, regular_polygon(6, 1, 0.1)).rotations.size() == 12);
  CHECK(gyre::nn::point_frame(FrameGroup::kSE, regular_polygon(5, 1, 0.1)).rotations.size() == 5);
}

TEST_CASE("FrameAveraging: backward equals central differences (input and backbone parameters)") {
  for (const int d : {2, 3}) {
    for (const FrameGroup group : kGroups) {
      for (const FrameOutput output : {FrameOutput::kInvariant, FrameOutput::kVectors, FrameOutput::kPositions}) {
        if (output == FrameOutput::kPositions && !has_translations(group)) continue;
        CAPTURE(d);
        const std::string group_name = gyre::nn::frame_group_name(group);
        CAPTURE(group_name);
        CAPTURE(static_cast<int>(output));
        auto net = make_averaged<double>(group, output, 2, 4, d, 11);
        const auto x = random_clouds<double>(2, 2, 4, d, 13);
        // Smooth where the spectrum is simple (random clouds: gaps ≳ 1e-2): step 1e-6, 1e-6 relative.
        CHECK(gyre::check::check_gradients(*net, x, 1e-6, 17).max_error() <= 1e-6);
      }
    }
  }
}

TEST_CASE("point_frame and FrameAveraging: bad input, huge and tiny clouds") {
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::point_frame(FrameGroup::kE, Matrix<double>::Zero(3, 4))),
                       "gyre::point_frame: points must be 2-d or 3-d (P × d, d = 2 or 3) (4)", gyre::ShapeError);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::point_frame(FrameGroup::kE, Matrix<double>::Zero(0, 3))),
                  gyre::ShapeError);
  Matrix<double> nan_cloud = Matrix<double>::Zero(3, 2);
  nan_cloud(1, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::point_frame(FrameGroup::kO, nan_cloud)),
                       "gyre::point_frame: coordinates must be finite (NaN or ±inf)", gyre::DomainError);
  // One point: Σ = 0, a tied null block; still a frame, and the canonical cloud is the origin.
  CHECK(gyre::nn::point_frame(FrameGroup::kE, Matrix<double>::Ones(1, 3)).rotations.size() == 2);
  // The frame is scale-free: 1e±300 clouds have the frame of the unit-scale cloud.
  gyre::Rng rng(5);
  const Matrix<double> x = rng.normal_matrix<double>(6, 3);
  const auto unit = gyre::nn::point_frame(FrameGroup::kO, x);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    const auto scaled = gyre::nn::point_frame(FrameGroup::kO, x * scale);
    REQUIRE(scaled.rotations.size() == unit.rotations.size());
    for (std::size_t i = 0; i < unit.rotations.size(); ++i) {
      CHECK((scaled.rotations[i] - unit.rotations[i]).norm() <= 1e-13);
    }
  }
  const gyre::nn::TensorType in = gyre::nn::point_cloud_type(1, 4, 4);
  const gyre::nn::TensorType scalars(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{2, {}});
  CHECK_THROWS_AS(FrameAveraging<double>(std::make_shared<TanhNet<double>>(in, scalars, 3, 1), FrameGroup::kO,
                                         FrameOutput::kInvariant),
                  gyre::ShapeError);
  const gyre::nn::TensorType in3 = gyre::nn::point_cloud_type(1, 4, 3);
  CHECK_THROWS_AS(FrameAveraging<double>(std::make_shared<TanhNet<double>>(in3, scalars, 3, 1), FrameGroup::kO,
                                         FrameOutput::kVectors),
                  gyre::ShapeError);
  CHECK_THROWS_AS(FrameAveraging<double>(nullptr, FrameGroup::kO, FrameOutput::kInvariant), gyre::ShapeError);
  FrameAveraging<double> net(std::make_shared<TanhNet<double>>(in3, scalars, 3, 1), FrameGroup::kE,
                             FrameOutput::kInvariant);
  CHECK_THROWS_AS(static_cast<void>(net.forward(random_clouds<double>(1, 2, 4, 3, 1))), gyre::ShapeError);
}

TEST_CASE("FrameAveraging: a Gyre MLP (Flatten, Linear, ELU, Linear) becomes E(3)-invariant") {
  auto mlp = std::make_shared<gyre::nn::Sequential<double>>();
  const gyre::nn::TensorType cloud = gyre::nn::point_cloud_type(2, 5, 3);
  mlp->emplace<gyre::nn::Flatten<double>>(cloud);
  mlp->emplace<gyre::nn::Linear<double>>(30, 16, true, 1);
  mlp->emplace<gyre::nn::PointwiseELU<double>>(
      gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{16, {}}));
  mlp->emplace<gyre::nn::Linear<double>>(16, 2, true, 2);
  FrameAveraging<double> net(mlp, FrameGroup::kE, FrameOutput::kInvariant);
  const auto x = random_clouds<double>(4, 2, 5, 3, 19);
  gyre::Rng rng(23);
  const Isometry g = random_isometry(FrameGroup::kE, 3, rng);
  {
    const gyre::nn::NoGrad no_grad;
    // Rounding of the frame and of four layers: 1e-12.
    CHECK(relative_gap(net.forward(act(g, x)).data, net.forward(x).data) <= 1e-12);
  }
  // ELU is smooth and the spectra are simple: central differences to 1e-6.
  CHECK(gyre::check::check_gradients(net, x, 1e-6, 29).max_error() <= 1e-6);
}

TEST_CASE("FrameAveraging: an MLP predicting positions (…, Linear, Unflatten) becomes E(3)-equivariant") {
  // What `gyre demo symmetry` trains on n-body states: positions and velocities in, positions out.
  auto mlp = std::make_shared<gyre::nn::Sequential<double>>();
  mlp->emplace<gyre::nn::Flatten<double>>(gyre::nn::point_cloud_type(2, 5, 3));
  mlp->emplace<gyre::nn::Linear<double>>(30, 16, true, 1);
  mlp->emplace<gyre::nn::PointwiseELU<double>>(
      gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{16, {}}));
  mlp->emplace<gyre::nn::Linear<double>>(16, 15, true, 2);
  mlp->emplace<gyre::nn::Unflatten<double>>(gyre::nn::point_cloud_type(1, 5, 3));
  FrameAveraging<double> net(mlp, FrameGroup::kE, FrameOutput::kPositions);
  const auto x = random_clouds<double>(4, 2, 5, 3, 31);
  gyre::Rng rng(37);
  const Isometry g = random_isometry(FrameGroup::kE, 3, rng);
  {
    const gyre::nn::NoGrad no_grad;
    // Rounding of the frame and of five layers: 1e-12.
    CHECK(relative_gap(net.forward(act(g, x)).data, act(g, net.forward(x)).data) <= 1e-12);
  }
  CHECK(gyre::check::check_gradients(net, x, 1e-6, 41).max_error() <= 1e-6);
}
