#include "gyre/nn/frame_averaging.hpp"

#include <algorithm>
#include <string>

#include "gyre/core/error.hpp"

namespace gyre::nn {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows of a contiguous block of T as a double matrix (rows × cols).
template <class T>
Matrix<double> read_rows(const T* data, Eigen::Index rows, Eigen::Index cols) {
  return Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(data, rows, cols)
      .template cast<double>();
}

template <class T>
void write_rows(T* data, const Matrix<double>& m) {
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(data, m.rows(), m.cols()) = m.cast<T>();
}

template <class T>
void add_rows(T* data, const Matrix<double>& m) {
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> out(data, m.rows(), m.cols());
  out += m.cast<T>();
}

// ∂L/∂Σ from ∂L/∂U for Σ = U·Λ·Uᵀ with a simple spectrum: U·(F ∘ UᵀŪ)·Uᵀ, F_ij = 1/(λⱼ − λᵢ),
// symmetrised (Σ is symmetric, so only its symmetric part is a direction).
Matrix<double> scatter_from_eigenvectors(const Matrix<double>& u, const Vector<double>& lambda,
                                         const Matrix<double>& u_bar) {
  const Eigen::Index d = u.cols();
  Matrix<double> inner = u.transpose() * u_bar;
  for (Eigen::Index i = 0; i < d; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) inner(i, j) = i == j ? 0.0 : inner(i, j) / (lambda(j) - lambda(i));
  }
  const Matrix<double> sigma_bar = u * inner * u.transpose();
  return (sigma_bar + sigma_bar.transpose()) / 2;
}

}  // namespace

TensorType point_cloud_type(int channels, int points, int dimension) {
  if (channels < 1 || points < 1 || dimension < 1) {
    throw ShapeError("point_cloud_type", "channels, points and dimension must be >= 1",
                     std::to_string(channels) + ", " + std::to_string(points) + ", " + std::to_string(dimension));
  }
  return TensorType(Base::kNone,
                    EuclideanFiber{channels, {static_cast<std::size_t>(points), static_cast<std::size_t>(dimension)}});
}

template <class T>
FrameAveraging<T>::FrameAveraging(std::shared_ptr<Module<T>> backbone, FrameGroup group, FrameOutput output)
    : BackboneWrapper<T, detail::FrameAveragingCall<T>>(std::move(backbone), "FrameAveraging"),
      group_(group),
      output_(output),
      channels_(0),
      points_(0),
      dimension_(0) {
  const TensorType& in = this->backbone_->in_type();
  const std::vector<std::size_t> item = in.item_shape();
  if (in.base() != Base::kNone || !in.is_euclidean() || item.size() != 2 || (item[1] != 2 && item[1] != 3)) {
    throw ShapeError("FrameAveraging", "the backbone must take point clouds none × ℝ^(P×d)[C], d = 2 or 3",
                     in.describe());
  }
  channels_ = in.channels();
  points_ = static_cast<int>(item[0]);
  dimension_ = static_cast<int>(item[1]);
  const TensorType& out = this->backbone_->out_type();
  const std::vector<std::size_t> out_item = out.item_shape();
  if (output_ != FrameOutput::kInvariant &&
      (!out.is_euclidean() || out_item.empty() || out_item.back() != item[1] || out.base() != Base::kNone)) {
    throw ShapeError("FrameAveraging", "equivariant outputs must be none × ℝ^(…×d)[C] with d = the input's",
                     out.describe());
  }
}

template <class T>
std::string FrameAveraging<T>::describe() const {
  const char* mode = output_ == FrameOutput::kInvariant ? "invariant" : "equivariant";
  return std::string("FrameAveraging(") + frame_group_name(group_) + "(" + std::to_string(dimension_) + ") " + mode +
         ", " + this->backbone_->describe() + ")";
}

template <class T>
GeometricTensor<T> FrameAveraging<T>::forward(const GeometricTensor<T>& input) {
  if (!(input.type == in_type())) {
    throw ShapeError("FrameAveraging::forward", "input type differs (expected " + in_type().describe() + ")",
                     input.type.describe());
  }
  const std::size_t batch = input.batch();
  const auto p = static_cast<Eigen::Index>(points_), d = static_cast<Eigen::Index>(dimension_);
  const std::size_t cloud = static_cast<std::size_t>(points_ * dimension_);
  const std::size_t item = static_cast<std::size_t>(channels_) * cloud;
  detail::FrameAveragingCall<T> call{input.data, {}, {}};
  std::size_t total = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    call.frames.push_back(point_frame(group_, read_rows(input.data.data() + b * item, p, d)));
    total += call.frames.back().rotations.size();
  }
  // Every item's canonical clouds g⁻¹·X, rows (x − t)ᵀR for the points and vᵀR for vectors.
  xt::xarray<T> canonical = xt::zeros<T>(
      {total, static_cast<std::size_t>(channels_), static_cast<std::size_t>(p), static_cast<std::size_t>(d)});
  std::size_t k = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    const PointFrame& frame = call.frames[b];
    for (const Matrix<double>& r : frame.rotations) {
      for (int c = 0; c < channels_; ++c) {
        Matrix<double> rows = read_rows(input.data.data() + b * item + static_cast<std::size_t>(c) * cloud, p, d);
        if (c == 0) rows = rows.rowwise() - frame.centre.transpose();
        write_rows(canonical.data() + k * item + static_cast<std::size_t>(c) * cloud, Matrix<double>(rows * r));
      }
      ++k;
    }
  }
  const GeometricTensor<T> z = this->backbone_->forward(GeometricTensor<T>(in_type(), std::move(canonical)));
  std::vector<std::size_t> out_shape(z.data.shape().begin(), z.data.shape().end());
  out_shape[0] = batch;
  xt::xarray<T> averaged = xt::zeros<T>(out_shape);
  // Values per item of the backbone's output (its base, if any, has a size set by the call).
  const std::size_t out_item = total == 0 ? 0 : z.data.size() / total;
  const std::size_t out_channel = out_item / static_cast<std::size_t>(out_shape[1]);
  k = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    const PointFrame& frame = call.frames[b];
    const double weight = 1.0 / static_cast<double>(frame.rotations.size());
    for (const Matrix<double>& r : frame.rotations) {
      const T* zk = z.data.data() + k * out_item;
      T* yb = averaged.data() + b * out_item;
      if (output_ == FrameOutput::kInvariant) {
        for (std::size_t i = 0; i < out_item; ++i) yb[i] += static_cast<T>(weight * static_cast<double>(zk[i]));
      } else {
        // g·z: rows z ↦ zᵀRᵀ (+ tᵀ on channel 0 for positions).
        Matrix<double> moved = read_rows(zk, static_cast<Eigen::Index>(out_item) / d, d) * r.transpose();
        if (output_ == FrameOutput::kPositions) {
          const Eigen::Index rows0 = static_cast<Eigen::Index>(out_channel) / d;
          moved.topRows(rows0).rowwise() += frame.centre.transpose();
        }
        add_rows(yb, Matrix<double>(weight * moved));
      }
      ++k;
    }
  }
  last_frames_ = call.frames;
  call.output = z.data;
  this->calls_.push(std::move(call));
  return GeometricTensor<T>(out_type(), std::move(averaged));
}

template <class T>
GeometricTensor<T> FrameAveraging<T>::backward(const GeometricTensor<T>& grad_output) {
  if (!(grad_output.type == out_type())) {
    throw ShapeError("FrameAveraging::backward", "gradient type differs (expected " + out_type().describe() + ")",
                     grad_output.type.describe());
  }
  const auto& call = this->calls_.top("FrameAveraging::backward", describe());
  const std::size_t batch = call.frames.size();
  if (grad_output.batch() != batch) {
    throw ShapeError("FrameAveraging::backward", "gradient batch differs from the forward's", grad_output.batch());
  }
  const auto p = static_cast<Eigen::Index>(points_), d = static_cast<Eigen::Index>(dimension_);
  const std::size_t cloud = static_cast<std::size_t>(points_ * dimension_);
  const std::size_t item = static_cast<std::size_t>(channels_) * cloud;
  if (grad_output.data.size() != batch * (call.output.size() / std::max<std::size_t>(call.output.shape()[0], 1))) {
    throw ShapeError("FrameAveraging::backward", "gradient shape differs from the forward output's",
                     grad_output.data.size());
  }
  const std::size_t out_item = batch == 0 ? 0 : grad_output.data.size() / batch;
  const auto out_rows = static_cast<Eigen::Index>(out_item) / d;
  const Eigen::Index rows0 =
      out_rows / static_cast<Eigen::Index>(grad_output.data.shape()[1]);  // rows of output channel 0

  // ∂L/∂z for every frame element, and the output's share of ∂L/∂R and ∂L/∂t.
  xt::xarray<T> z_bar = xt::zeros_like(call.output);
  std::vector<std::vector<Matrix<double>>> r_bar(batch);
  std::vector<Vector<double>> t_bar(batch, Vector<double>::Zero(d));
  std::size_t k = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    const PointFrame& frame = call.frames[b];
    const double weight = 1.0 / static_cast<double>(frame.rotations.size());
    const T* yb = grad_output.data.data() + b * out_item;
    for (const Matrix<double>& r : frame.rotations) {
      T* zk = z_bar.data() + k * out_item;
      if (output_ == FrameOutput::kInvariant) {
        for (std::size_t i = 0; i < out_item; ++i) zk[i] = static_cast<T>(weight * static_cast<double>(yb[i]));
        r_bar[b].push_back(Matrix<double>::Zero(d, d));
      } else {
        const Matrix<double> y_bar = weight * read_rows(yb, out_rows, d);
        write_rows(zk, Matrix<double>(y_bar * r));
        // y = z·Rᵀ: ∂L/∂R = ȳᵀ·z.
        r_bar[b].push_back(y_bar.transpose() * read_rows(call.output.data() + k * out_item, out_rows, d));
        if (output_ == FrameOutput::kPositions) t_bar[b] += y_bar.topRows(rows0).colwise().sum().transpose();
      }
      ++k;
    }
  }
  const GeometricTensor<T> canonical_bar = this->backbone_->backward(GeometricTensor<T>(out_type(), std::move(z_bar)));

  GeometricTensor<T> grad(in_type(), xt::xarray<T>(xt::zeros_like(call.input)));
  k = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    const PointFrame& frame = call.frames[b];
    const Matrix<double> x = read_rows(call.input.data() + b * item, p, d);
    const Matrix<double> centred = x.rowwise() - frame.centre.transpose();
    Matrix<double> x_bar = Matrix<double>::Zero(p, d);  // channel 0, through the centred cloud
    for (std::size_t e = 0; e < frame.rotations.size(); ++e, ++k) {
      const Matrix<double>& r = frame.rotations[e];
      for (int c = 0; c < channels_; ++c) {
        const std::size_t offset = static_cast<std::size_t>(c) * cloud;
        const Matrix<double> c_bar = read_rows(canonical_bar.data.data() + k * item + offset, p, d);
        // canonical = rows·R: ∂/∂rows = c̄·Rᵀ, ∂/∂R = rowsᵀ·c̄.
        if (c == 0) {
          x_bar += c_bar * r.transpose();
          r_bar[b][e] += centred.transpose() * c_bar;
        } else {
          add_rows(grad.data.data() + b * item + offset, Matrix<double>(c_bar * r.transpose()));
          r_bar[b][e] += read_rows(call.input.data() + b * item + offset, p, d).transpose() * c_bar;
        }
      }
    }
    if (!frame.degenerate) {
      // R_e = U·S_e (S_e diagonal signs): ∂L/∂U = Σₑ R̄ₑ·Sₑ, Sₑ = Uᵀ·R_e.
      Matrix<double> u_bar = Matrix<double>::Zero(d, d);
      for (std::size_t e = 0; e < frame.rotations.size(); ++e) {
        const Matrix<double> signs = frame.eigenvectors.transpose() * frame.rotations[e];
        u_bar += r_bar[b][e] * signs.diagonal().array().round().matrix().asDiagonal();
      }
      // Σ = CᵀC (the frame used Σ/s²: same eigenvectors, eigenvalues scaled by s²).
      const double scale = centred.cwiseAbs().maxCoeff();
      const Matrix<double> sigma_bar =
          scatter_from_eigenvectors(frame.eigenvectors, frame.eigenvalues * (scale * scale), u_bar);
      x_bar += 2 * centred * sigma_bar;
    }
    if (group_ == FrameGroup::kE || group_ == FrameGroup::kSE) {
      // C = X − 1·tᵀ with t the mean: ∂/∂X = C̄ − mean rows of C̄; t̄ (from positions out) spreads as t̄/P.
      const Vector<double> mean_bar = x_bar.colwise().mean().transpose();
      x_bar.rowwise() -= mean_bar.transpose();
      x_bar.rowwise() += (t_bar[b] / static_cast<double>(p)).transpose();
    }
    add_rows(grad.data.data() + b * item, x_bar);
  }
  this->calls_.drop();
  return grad;
}

template class FrameAveraging<float>;
template class FrameAveraging<double>;

}  // namespace gyre::nn
