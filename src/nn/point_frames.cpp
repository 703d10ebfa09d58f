#include "gyre/nn/point_frames.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "gyre/core/error.hpp"

namespace gyre::nn {
namespace {

// Eigenvalues of the normalised scatter (largest ≤ P) closer than this, relative, are one eigenspace:
// the eigensolver resolves them to ~1e-15, and a gap this small already leaves eigenvectors
// uncertain to ~1e-8.
constexpr double kEigenvalueTie = 1e-8;
// Projections whose norms agree to this, relative, are equally far: ties in a symmetric cloud
// differ by rounding only.
constexpr double kNormTie = 1e-9;

bool has_translations(FrameGroup group) { return group == FrameGroup::kE || group == FrameGroup::kSE; }
bool orientation_fixed(FrameGroup group) { return group == FrameGroup::kSO || group == FrameGroup::kSE; }

// One choice of axes for each eigenvalue block; the frame is their product.
using AxisChoices = std::vector<Matrix<double>>;  // each d × m

// Unit vectors from the points whose rows of `projected` (P × m coordinates in `basis`) are longest.
std::vector<Vector<double>> longest_directions(const Matrix<double>& projected, const Matrix<double>& basis) {
  const Vector<double> norms = projected.rowwise().norm();
  const double longest = norms.maxCoeff();
  std::vector<Vector<double>> directions;
  for (Eigen::Index i = 0; i < norms.size(); ++i) {
    if (norms(i) >= longest * (1 - kNormTie)) {
      const Vector<double> a = basis * projected.row(i).transpose() / norms(i);
      // Two points on one ray give the same axis once.
      const bool seen = std::any_of(directions.begin(), directions.end(),
                                    [&](const Vector<double>& b) { return (a - b).norm() <= 1e-12; });
      if (!seen) directions.push_back(a);
    }
  }
  return directions;
}

// Orthonormal bases (d × m) of the tied eigenspace `basis` chosen by the points (header comment); the
// last axis is left with a + sign here, its sign being chosen with the others.
AxisChoices tied_block_choices(const Matrix<double>& centred, const Matrix<double>& basis) {
  const Eigen::Index m = basis.cols();
  const Matrix<double> projected = centred * basis;  // P × m
  const double scale = projected.rowwise().norm().maxCoeff();
  if (!(scale > 1e-12)) return {basis};  // the null space of Σ: every basis sees the same cloud
  AxisChoices choices;
  for (const Vector<double>& a1 : longest_directions(projected, basis)) {
    if (m == 2) {
      // The unit vector of E orthogonal to a₁: E·J·(Eᵀa₁) with J the quarter turn of E's coordinates.
      const Vector<double> c = basis.transpose() * a1;
      Matrix<double> axes(basis.rows(), 2);
      axes.col(0) = a1;
      axes.col(1) = basis * Vector<double>((Vector<double>(2) << -c(1), c(0)).finished());
      choices.push_back(axes);
      continue;
    }
    // m = 3 (d = 3, Σ ∝ I): a₂ from the longest projections orthogonal to a₁, a₃ = a₁ × a₂.
    const Matrix<double> rest = centred - (centred * a1) * a1.transpose();
    const Eigen::JacobiSVD<Matrix<double>> svd(Matrix<double>::Identity(3, 3) - a1 * a1.transpose(),
                                               Eigen::ComputeFullU);
    const Matrix<double> plane = svd.matrixU().leftCols(2);  // an orthonormal basis of a₁⊥
    const Matrix<double> in_plane = rest * plane;
    std::vector<Vector<double>> seconds;
    if (in_plane.rowwise().norm().maxCoeff() > 1e-12 * scale) {
      seconds = longest_directions(in_plane, plane);
    } else {
      seconds.push_back(plane.col(0));  // the cloud lies on a₁'s line: every a₂ sees the same cloud
    }
    for (const Vector<double>& a2 : seconds) {
      Matrix<double> axes(3, 3);
      axes.col(0) = a1;
      axes.col(1) = a2;
      // a₁ × a₂ written out: GCC 12 flags Eigen's vectorised 3-d cross product (-Warray-bounds, a false positive).
      axes.col(2) << a1(1) * a2(2) - a1(2) * a2(1), a1(2) * a2(0) - a1(0) * a2(2), a1(0) * a2(1) - a1(1) * a2(0);
      choices.push_back(axes);
    }
  }
  return choices;
}

}  // namespace

const char* frame_group_name(FrameGroup group) noexcept {
  switch (group) {
    case FrameGroup::kO:
      return "O";
    case FrameGroup::kSO:
      return "SO";
    case FrameGroup::kE:
      return "E";
    case FrameGroup::kSE:
      return "SE";
  }
  return "?";
}

PointFrame point_frame(FrameGroup group, const Matrix<double>& points) {
  const Eigen::Index d = points.cols();
  if (d != 2 && d != 3) throw ShapeError("point_frame", "points must be 2-d or 3-d (P × d, d = 2 or 3)", d);
  if (points.rows() < 1) throw ShapeError("point_frame", "a cloud needs at least one point", points.rows());
  if (!points.allFinite()) throw DomainError("point_frame", "coordinates must be finite", "NaN or ±inf");
  PointFrame frame;
  frame.centre = Vector<double>::Zero(d);
  // The centroid as a running sum of xᵢ/P: no intermediate overflows for coordinates up to the largest double.
  if (has_translations(group)) {
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
      frame.centre += points.row(i).transpose() / static_cast<double>(points.rows());
    }
  }
  Matrix<double> centred = points.rowwise() - frame.centre.transpose();
  const double scale = centred.cwiseAbs().maxCoeff();
  if (scale > 0) centred /= scale;  // eigenvectors do not depend on the scale; Σ/s² cannot overflow
  const Eigen::SelfAdjointEigenSolver<Matrix<double>> eigen(centred.transpose() * centred);
  frame.eigenvalues = eigen.eigenvalues().reverse();
  frame.eigenvectors = eigen.eigenvectors().rowwise().reverse();

  // Blocks of tied eigenvalues, and each block's axis choices.
  const double top = std::max(frame.eigenvalues(0), 0.0);
  std::vector<AxisChoices> blocks;
  for (Eigen::Index begin = 0; begin < d;) {
    Eigen::Index end = begin + 1;
    while (end < d && frame.eigenvalues(begin) - frame.eigenvalues(end) <= kEigenvalueTie * top) ++end;
    const Matrix<double> basis = frame.eigenvectors.middleCols(begin, end - begin);
    if (end - begin == 1) {
      blocks.push_back({basis});
    } else {
      frame.degenerate = true;
      blocks.push_back(tied_block_choices(centred, basis));
    }
    begin = end;
  }
  // The product of block choices, times the sign of each block's last axis (the other axes of a tied
  // block come from points, whose signs are part of the choice); SO/SE keep det R = +1.
  std::vector<Matrix<double>> partial{Matrix<double>(d, 0)};
  for (const AxisChoices& choices : blocks) {
    std::vector<Matrix<double>> next;
    for (const Matrix<double>& head : partial) {
      for (const Matrix<double>& axes : choices) {
        for (const double sign : {1.0, -1.0}) {
          Matrix<double> r(d, head.cols() + axes.cols());
          r << head, axes;
          r.col(r.cols() - 1) *= sign;
          next.push_back(r);
        }
      }
    }
    partial = std::move(next);
  }
  for (const Matrix<double>& r : partial) {
    if (!orientation_fixed(group) || r.determinant() > 0) frame.rotations.push_back(r);
  }
  return frame;
}

}  // namespace gyre::nn
