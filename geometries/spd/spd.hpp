#pragma once
// SPD(n): every metric Gyre offers, and the Lie group structures LieBN uses. One header per
// metric; this one includes them all.
#include "spd/affine_invariant.hpp"
#include "spd/bures_wasserstein.hpp"
#include "spd/euclidean.hpp"
#include "spd/generalized_bures_wasserstein.hpp"
#include "spd/log_cholesky.hpp"
#include "spd/log_euclidean.hpp"
#include "spd/power_deformed.hpp"
#include "spd/spd_groups.hpp"
#include "spd/affine_invariant_batch.hpp"
