#include "image_descriptors.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>
#include <Eigen/SVD>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"

namespace gyre::tools {

namespace {

// Pixel (r, c) of image k, zero outside.
float pixel(const xt::xtensor<float, 4>& images, std::size_t k, long r, long c) {
  const auto h = static_cast<long>(images.shape(2));
  const auto w = static_cast<long>(images.shape(3));
  if (r < 0 || c < 0 || r >= h || c >= w) return 0.0f;
  return images(k, 0, static_cast<std::size_t>(r), static_cast<std::size_t>(c));
}

void require_one_channel(const char* where, const xt::xtensor<float, 4>& images) {
  if (images.shape(1) != 1 || images.shape(0) == 0 || images.shape(2) == 0 || images.shape(3) == 0) {
    throw ShapeError(where, "needs a non-empty batch of one-channel images (N, 1, H, W)",
                     std::to_string(images.shape(0)) + "×" + std::to_string(images.shape(1)));
  }
}

}  // namespace

xt::xarray<float> region_covariances(const xt::xtensor<float, 4>& images) {
  require_one_channel("region_covariances", images);
  const std::size_t n = images.shape(0);
  const auto h = static_cast<long>(images.shape(2));
  const auto w = static_cast<long>(images.shape(3));
  constexpr int d = kRegionFeatures;
  xt::xarray<float> out = xt::zeros<float>({n, std::size_t{1}, std::size_t{d}, std::size_t{d}});
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const auto k = static_cast<std::size_t>(item);
    Eigen::Matrix<double, d, 1> mean = Eigen::Matrix<double, d, 1>::Zero();
    Eigen::Matrix<double, d, d> second = Eigen::Matrix<double, d, d>::Zero();
    for (long r = 0; r < h; ++r) {
      for (long c = 0; c < w; ++c) {
        const float centre = pixel(images, k, r, c);
        if (!std::isfinite(centre)) throw DomainError("region_covariances", "pixels must be finite", centre);
        Eigen::Matrix<double, d, 1> f;
        f << static_cast<double>(c) / static_cast<double>(std::max(1L, w - 1)),
            static_cast<double>(r) / static_cast<double>(std::max(1L, h - 1)), centre,
            std::abs(0.5 * (pixel(images, k, r, c + 1) - pixel(images, k, r, c - 1))),
            std::abs(0.5 * (pixel(images, k, r + 1, c) - pixel(images, k, r - 1, c))),
            std::abs(static_cast<double>(pixel(images, k, r, c + 1)) - 2.0 * centre + pixel(images, k, r, c - 1)),
            std::abs(static_cast<double>(pixel(images, k, r + 1, c)) - 2.0 * centre + pixel(images, k, r - 1, c));
        mean += f;
        second.noalias() += f * f.transpose();
      }
    }
    const double count = static_cast<double>(h * w);
    mean /= count;
    Eigen::Matrix<double, d, d> covariance = second / count - mean * mean.transpose();
    covariance += (1e-4 * covariance.trace() / d + 1e-12) * Eigen::Matrix<double, d, d>::Identity();
    // Pixels beyond ~1e19 give covariances beyond float's range: an error, never a silent ∞.
    if (!(covariance.cwiseAbs().maxCoeff() <= static_cast<double>(std::numeric_limits<float>::max()))) {
      throw DomainError("region_covariances", "the covariance of image " + std::to_string(k) + " exceeds float's range",
                        covariance.cwiseAbs().maxCoeff());
    }
    for (int i = 0; i < d; ++i) {
      for (int j = 0; j < d; ++j)
        out(k, 0, static_cast<std::size_t>(i), static_cast<std::size_t>(j)) =
            static_cast<float>(0.5 * (covariance(i, j) + covariance(j, i)));
    }
  });
  return out;
}

xt::xarray<float> principal_subspaces(const xt::xtensor<float, 4>& images, int p) {
  require_one_channel("principal_subspaces", images);
  const std::size_t n = images.shape(0);
  const auto h = static_cast<Eigen::Index>(images.shape(2));
  const auto w = static_cast<Eigen::Index>(images.shape(3));
  if (!(p >= 1 && p <= std::min(h, w))) {
    throw ShapeError("principal_subspaces", "needs 1 <= p <= min(H, W) = " + std::to_string(std::min(h, w)), p);
  }
  const auto pu = static_cast<std::size_t>(p);
  xt::xarray<float> out = xt::zeros<float>({n, std::size_t{1}, static_cast<std::size_t>(h), pu});
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const auto k = static_cast<std::size_t>(item);
    Eigen::MatrixXd a(h, w);
    for (Eigen::Index r = 0; r < h; ++r) {
      for (Eigen::Index c = 0; c < w; ++c)
        a(r, c) = images(k, 0, static_cast<std::size_t>(r), static_cast<std::size_t>(c));
    }
    if (!a.allFinite()) throw DomainError("principal_subspaces", "pixels must be finite", k);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU);
    for (Eigen::Index r = 0; r < h; ++r) {
      for (std::size_t j = 0; j < pu; ++j)
        out(k, 0, static_cast<std::size_t>(r), j) = static_cast<float>(svd.matrixU()(r, static_cast<Eigen::Index>(j)));
    }
  });
  return out;
}

}  // namespace gyre::tools
