#pragma once
// Ready-made image classifiers for 1-channel images (Fashion-MNIST padded to 29×29): a C_N-
// steerable CNN in the style of Weiler & Cesa's experiments, and a conventional CNN of about the
// same number of parameters to compare it with.
//
// Steerable: conv5(trivial → c₁ regular) BN ReLU, conv5(c₁ → c₁) BN ReLU, maxpool 3/2,
//            conv5(c₁ → c₂) BN ReLU, maxpool 3/2, conv5(c₂ → c₂) BN ReLU,
//            group pooling, global average, linear(c₂ → 10). Invariant logits.
// Plain:     the same layout on ordinary channels (PlainConv2d), ending in a global average.
// Downsampling: the steerable layout over D_N (or C_N) whose group axis is subsampled to the
//            subgroup at `rate` after the first pooling (GroupDownsample, anti-aliased or naive);
//            the last two convolutions run over the subgroup (Rahman & Yeh's G-CNN layout).
// Pooling windows of 3 with stride 2 and padding 1 tile 29 → 15 → 8 symmetrically, so the
// steerable network is exactly invariant to quarter turns (and flips for D_N).

#include <memory>

#include "gyre/nn/sequential.hpp"

namespace gyre::nn {

/// The steerable CNN over C_N (or D_N with flips), widths in regular fields.
[[nodiscard]] std::unique_ptr<Sequential<float>> steerable_cnn(const repr::PlanarGroup& group, int fields1, int fields2,
                                                               int classes = 10, std::uint64_t seed = 1);
/// The steerable CNN whose group is subsampled to its subgroup at `rate` (repr::subsample_group, same
/// family) after the first pooling, by anti-aliased or naive GroupDownsample; widths in regular
/// fields. Invariant logits; exactly invariant to the subgroup's grid symmetries.
[[nodiscard]] std::unique_ptr<Sequential<float>> downsampling_cnn(const repr::PlanarGroup& group, int rate,
                                                                  bool anti_aliasing, int fields1, int fields2,
                                                                  int classes = 10, std::uint64_t seed = 1);
/// The conventional CNN, widths in channels.
[[nodiscard]] std::unique_ptr<Sequential<float>> plain_cnn(int channels1, int channels2, int classes = 10,
                                                           std::uint64_t seed = 1);

}  // namespace gyre::nn
