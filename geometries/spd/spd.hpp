#pragma once
// SPD(n): every metric Gyre offers, and the Lie group structures LieBN uses. One header per
// metric; this one includes them all.
#include "affine_invariant.hpp"
#include "affine_invariant_batch.hpp"
#include "bures_wasserstein.hpp"
#include "euclidean.hpp"
#include "generalized_bures_wasserstein.hpp"
#include "log_cholesky.hpp"
#include "log_euclidean.hpp"
#include "power_deformed.hpp"
#include "spd_groups.hpp"
