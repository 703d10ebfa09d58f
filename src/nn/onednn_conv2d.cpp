#include "onednn_conv2d.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>

#include <oneapi/dnnl/dnnl.hpp>

namespace gyre::nn::detail {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr memory::data_type kF32 = memory::data_type::f32;

// Everything that decides a primitive: batch, channels in/out, image size, kernel, geometry.
using ShapeKey = std::array<int, 9>;

ShapeKey key_of(const xt::xtensor<float, 4>& input, const xt::xtensor<float, 4>& filter, const Conv2dGeometry& g) {
  return {static_cast<int>(input.shape(0)),
          static_cast<int>(input.shape(1)),
          static_cast<int>(input.shape(2)),
          static_cast<int>(input.shape(3)),
          static_cast<int>(filter.shape(0)),
          static_cast<int>(filter.shape(2)),
          g.stride,
          g.padding,
          g.dilation};
}

// One CPU engine for the process; a stream per thread, since a stream is not meant to be shared
// by threads submitting at the same time.
struct Context {
  dnnl::engine& engine;
  dnnl::stream& stream;
};

Context context() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  thread_local dnnl::stream stream(engine);
  return {engine, stream};
}

// The oneDNN descriptions of one convolution shape; formats are left to oneDNN ("any") so that it
// picks its fastest blocked layouts, and data is reordered from and to Gyre's NCHW / OIHW.
struct Descriptors {
  memory::dims src, weights, bias, dst, strides, dilates, padding;
  memory::desc src_any, weights_any, bias_x, dst_any;
  memory::desc src_nchw, weights_oihw, dst_nchw;
};

Descriptors describe(const ShapeKey& k, int out_height, int out_width) {
  Descriptors d;
  d.src = {k[0], k[1], k[2], k[3]};
  d.weights = {k[4], k[1], k[5], k[5]};
  d.bias = {k[4]};
  d.dst = {k[0], k[4], out_height, out_width};
  d.strides = {k[6], k[6]};
  d.dilates = {k[8] - 1, k[8] - 1};  // oneDNN counts the gaps: dilation 1 is 0 here
  d.padding = {k[7], k[7]};
  d.src_any = memory::desc(d.src, kF32, Tag::any);
  d.weights_any = memory::desc(d.weights, kF32, Tag::any);
  d.bias_x = memory::desc(d.bias, kF32, Tag::x);
  d.dst_any = memory::desc(d.dst, kF32, Tag::any);
  d.src_nchw = memory::desc(d.src, kF32, Tag::nchw);
  d.weights_oihw = memory::desc(d.weights, kF32, Tag::oihw);
  d.dst_nchw = memory::desc(d.dst, kF32, Tag::nchw);
  return d;
}

dnnl::convolution_forward::primitive_desc forward_descriptor(const Descriptors& d, dnnl::prop_kind kind) {
  const dnnl::convolution_forward::desc desc(kind, dnnl::algorithm::convolution_direct, d.src_any, d.weights_any,
                                             d.bias_x, d.dst_any, d.strides, d.dilates, d.padding, d.padding);
  return {desc, context().engine};
}

struct ForwardPlan {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
};

struct BackwardPlan {
  dnnl::convolution_backward_data::primitive_desc data_pd;
  dnnl::convolution_backward_data data;
  dnnl::convolution_backward_weights::primitive_desc weights_pd;
  dnnl::convolution_backward_weights weights;
};

// Plans are built under the lock and shared; a plan's primitives may run concurrently.
template <class Plan>
class PlanCache {
 public:
  template <class Build>
  std::shared_ptr<const Plan> get(const ShapeKey& key, Build build) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = plans_.find(key);
    if (found == plans_.end()) found = plans_.emplace(key, std::make_shared<const Plan>(build())).first;
    return found->second;
  }

 private:
  std::mutex mutex_;
  std::map<ShapeKey, std::shared_ptr<const Plan>> plans_;
};

// A user array seen by oneDNN in `wanted`'s layout: wraps it when the layouts agree, otherwise
// reorders it into a fresh buffer.
memory as_layout(const memory::desc& wanted, memory user) {
  if (wanted == user.get_desc()) return user;
  memory converted(wanted, context().engine);
  dnnl::reorder(user, converted).execute(context().stream, user, converted);
  return converted;
}

memory wrap(const memory::desc& desc, const float* data) {
  return memory(desc, context().engine, const_cast<float*>(data));
}

// Runs `primitive` writing into a buffer of layout `produced`, then copies it into `user` if the
// layouts differ.
template <class Run>
void into_user(const memory::desc& produced, memory& user, Run run) {
  if (produced == user.get_desc()) {
    run(user);
    return;
  }
  memory buffer(produced, context().engine);
  run(buffer);
  dnnl::reorder(buffer, user).execute(context().stream, buffer, user);
}

std::size_t to_size(int v) { return static_cast<std::size_t>(v); }

}  // namespace

std::optional<xt::xtensor<float, 4>> onednn_conv2d(const xt::xtensor<float, 4>& input,
                                                   const xt::xtensor<float, 4>& filter, const std::vector<float>& bias,
                                                   const Conv2dGeometry& geometry, int out_height, int out_width) {
  static PlanCache<ForwardPlan> cache;
  const ShapeKey key = key_of(input, filter, geometry);
  const Descriptors d = describe(key, out_height, out_width);
  try {
    const auto plan = cache.get(key, [&] {
      // forward_training: R2Conv's forward in training mode is followed by this backward, and
      // oneDNN's training and inference kernels for f32 are the same.
      auto pd = forward_descriptor(d, dnnl::prop_kind::forward_training);
      return ForwardPlan{pd, dnnl::convolution_forward(pd)};
    });
    xt::xtensor<float, 4> output =
        xt::xtensor<float, 4>::from_shape({input.shape(0), filter.shape(0), to_size(out_height), to_size(out_width)});
    const memory src = as_layout(plan->pd.src_desc(), wrap(d.src_nchw, input.data()));
    const memory weights = as_layout(plan->pd.weights_desc(), wrap(d.weights_oihw, filter.data()));
    // An all-zero bias when none is given: one primitive serves both cases.
    std::vector<float> zeros;
    if (bias.empty()) zeros.assign(filter.shape(0), 0.0F);
    const memory bias_memory = wrap(d.bias_x, bias.empty() ? zeros.data() : bias.data());
    memory dst_user = wrap(d.dst_nchw, output.data());
    into_user(plan->pd.dst_desc(), dst_user, [&](memory& dst) {
      plan->primitive.execute(
          context().stream,
          {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias_memory}, {DNNL_ARG_DST, dst}});
    });
    context().stream.wait();
    return output;
  } catch (const dnnl::error&) {
    return std::nullopt;  // no oneDNN kernel for this shape: the caller runs the reference
  }
}

std::optional<Conv2dGradients<float>> onednn_conv2d_backward(const xt::xtensor<float, 4>& input,
                                                             const xt::xtensor<float, 4>& filter,
                                                             const xt::xtensor<float, 4>& grad_output,
                                                             const Conv2dGeometry& geometry, bool need_input) {
  static PlanCache<BackwardPlan> cache;
  const ShapeKey key = key_of(input, filter, geometry);
  const int out_height = static_cast<int>(grad_output.shape(2));
  const int out_width = static_cast<int>(grad_output.shape(3));
  const Descriptors d = describe(key, out_height, out_width);
  try {
    const auto plan = cache.get(key, [&] {
      const auto hint = forward_descriptor(d, dnnl::prop_kind::forward_training);
      const dnnl::convolution_backward_data::desc data_desc(dnnl::algorithm::convolution_direct, d.src_any,
                                                            d.weights_any, d.dst_any, d.strides, d.dilates, d.padding,
                                                            d.padding);
      const dnnl::convolution_backward_data::primitive_desc data_pd(data_desc, context().engine, hint);
      const dnnl::convolution_backward_weights::desc weights_desc(dnnl::algorithm::convolution_direct, d.src_any,
                                                                  d.weights_any, d.bias_x, d.dst_any, d.strides,
                                                                  d.dilates, d.padding, d.padding);
      const dnnl::convolution_backward_weights::primitive_desc weights_pd(weights_desc, context().engine, hint);
      return BackwardPlan{data_pd, dnnl::convolution_backward_data(data_pd), weights_pd,
                          dnnl::convolution_backward_weights(weights_pd)};
    });
    Conv2dGradients<float> grads;
    grads.filter = xt::xtensor<float, 4>::from_shape(filter.shape());
    grads.bias.assign(filter.shape(0), 0.0F);
    const memory grad_dst_user = wrap(d.dst_nchw, grad_output.data());

    const memory src = as_layout(plan->weights_pd.src_desc(), wrap(d.src_nchw, input.data()));
    const memory grad_dst_w = as_layout(plan->weights_pd.diff_dst_desc(), grad_dst_user);
    memory grad_weights_user = wrap(d.weights_oihw, grads.filter.data());
    const memory grad_bias = wrap(d.bias_x, grads.bias.data());
    into_user(plan->weights_pd.diff_weights_desc(), grad_weights_user, [&](memory& grad_weights) {
      plan->weights.execute(context().stream, {{DNNL_ARG_SRC, src},
                                               {DNNL_ARG_DIFF_DST, grad_dst_w},
                                               {DNNL_ARG_DIFF_WEIGHTS, grad_weights},
                                               {DNNL_ARG_DIFF_BIAS, grad_bias}});
    });

    if (need_input) {
      grads.input = xt::xtensor<float, 4>::from_shape(input.shape());
      const memory weights = as_layout(plan->data_pd.weights_desc(), wrap(d.weights_oihw, filter.data()));
      const memory grad_dst_d = plan->data_pd.diff_dst_desc() == grad_dst_w.get_desc()
                                    ? grad_dst_w
                                    : as_layout(plan->data_pd.diff_dst_desc(), grad_dst_user);
      memory grad_src_user = wrap(d.src_nchw, grads.input.data());
      into_user(plan->data_pd.diff_src_desc(), grad_src_user, [&](memory& grad_src) {
        plan->data.execute(
            context().stream,
            {{DNNL_ARG_DIFF_DST, grad_dst_d}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DIFF_SRC, grad_src}});
      });
    }
    context().stream.wait();
    return grads;
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

}  // namespace gyre::nn::detail
