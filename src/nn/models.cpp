#include "gyre/nn/models.hpp"

#include "gyre/nn/group_downsample.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/r2conv.hpp"

namespace gyre::nn {
namespace {

R2ConvOptions conv_options(std::uint64_t seed) {
  R2ConvOptions options;
  options.padding = 2;
  options.seed = seed;
  return options;
}

template <class Conv>
void block(Sequential<float>& net, std::unique_ptr<Conv> conv) {
  const FieldType type = conv->out_type().fields("steerable_cnn");
  net.add(std::move(conv));
  net.emplace<InnerBatchNorm<float>>(type);
  net.emplace<PointwiseReLU<float>>(type);
}

}  // namespace

std::unique_ptr<Sequential<float>> steerable_cnn(const repr::PlanarGroup& group, int fields1, int fields2, int classes,
                                                 std::uint64_t seed) {
  const repr::Representation regular = repr::regular_representation(group);
  const FieldType input(group, repr::trivial_representation(group), 1);
  const FieldType wide1(group, regular, fields1);
  const FieldType wide2(group, regular, fields2);
  auto net = std::make_unique<Sequential<float>>();
  block(*net, std::make_unique<R2Conv<float>>(input, wide1, 5, conv_options(seed)));
  block(*net, std::make_unique<R2Conv<float>>(wide1, wide1, 5, conv_options(seed + 1)));
  net->emplace<PointwiseMaxPool<float>>(wide1, 3, 2, 1);
  block(*net, std::make_unique<R2Conv<float>>(wide1, wide2, 5, conv_options(seed + 2)));
  net->emplace<PointwiseMaxPool<float>>(wide2, 3, 2, 1);
  block(*net, std::make_unique<R2Conv<float>>(wide2, wide2, 5, conv_options(seed + 3)));
  net->emplace<GroupPooling<float>>(wide2);
  const FieldType invariant(group, repr::trivial_representation(group), fields2);
  net->emplace<GlobalAveragePool<float>>(invariant);
  net->emplace<EquivariantLinear<float>>(invariant, FieldType(group, repr::trivial_representation(group), classes),
                                         true, seed + 4);
  return net;
}

std::unique_ptr<Sequential<float>> downsampling_cnn(const repr::PlanarGroup& group, int rate, bool anti_aliasing,
                                                    int fields1, int fields2, int classes, std::uint64_t seed) {
  const FieldType input(group, repr::trivial_representation(group), 1);
  const FieldType wide1(group, repr::regular_representation(group), fields1);
  auto net = std::make_unique<Sequential<float>>();
  block(*net, std::make_unique<R2Conv<float>>(input, wide1, 5, conv_options(seed)));
  block(*net, std::make_unique<R2Conv<float>>(wide1, wide1, 5, conv_options(seed + 1)));
  net->emplace<PointwiseMaxPool<float>>(wide1, 3, 2, 1);
  auto downsample =
      std::make_unique<GroupDownsample<float>>(wide1, rate, repr::SubgroupFamily::kSameFamily, anti_aliasing);
  const FieldType sub1 = downsample->out_type().fields("downsampling_cnn");
  const repr::PlanarGroup& subgroup = sub1.group();
  net->add(std::move(downsample));
  const FieldType sub2(subgroup, repr::regular_representation(subgroup), fields2);
  block(*net, std::make_unique<R2Conv<float>>(sub1, sub2, 5, conv_options(seed + 2)));
  net->emplace<PointwiseMaxPool<float>>(sub2, 3, 2, 1);
  block(*net, std::make_unique<R2Conv<float>>(sub2, sub2, 5, conv_options(seed + 3)));
  net->emplace<GroupPooling<float>>(sub2);
  const FieldType invariant(subgroup, repr::trivial_representation(subgroup), fields2);
  net->emplace<GlobalAveragePool<float>>(invariant);
  net->emplace<EquivariantLinear<float>>(
      invariant, FieldType(subgroup, repr::trivial_representation(subgroup), classes), true, seed + 4);
  return net;
}

std::unique_ptr<Sequential<float>> plain_cnn(int channels1, int channels2, int classes, std::uint64_t seed) {
  auto net = std::make_unique<Sequential<float>>();
  const Conv2dGeometry same{1, 2, 1};
  block(*net, std::make_unique<PlainConv2d<float>>(1, channels1, 5, same, true, seed));
  block(*net, std::make_unique<PlainConv2d<float>>(channels1, channels1, 5, same, true, seed + 1));
  net->emplace<PointwiseMaxPool<float>>(plain_field_type(channels1), 3, 2, 1);
  block(*net, std::make_unique<PlainConv2d<float>>(channels1, channels2, 5, same, true, seed + 2));
  net->emplace<PointwiseMaxPool<float>>(plain_field_type(channels2), 3, 2, 1);
  block(*net, std::make_unique<PlainConv2d<float>>(channels2, channels2, 5, same, true, seed + 3));
  net->emplace<GlobalAveragePool<float>>(plain_field_type(channels2));
  net->emplace<PlainConv2d<float>>(channels2, classes, 1, Conv2dGeometry{}, true, seed + 4);
  return net;
}

}  // namespace gyre::nn
