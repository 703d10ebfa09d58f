// The registry of spaces `make_space` (and so `gyre geom` and `gyre demo`) knows by name.
// Adding a geometry: include its header, add one SpaceInfo row and one factory branch.
#include <cmath>

#include "cn/cn.hpp"
#include "dn/dn.hpp"
#include "e2/e2.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/any_manifold_model.hpp"
#include "o/o.hpp"
#include "o2/o2.hpp"
#include "se2/se2.hpp"
#include "so/so.hpp"
#include "so2/so2.hpp"
#include "space_params.hpp"
#include "sphere/sphere.hpp"

namespace gyre {

namespace {

using detail::integer_param;

template <class Space>
AnyManifold manifold(const std::string& name, Space space) {
  return detail::wrap_manifold(name, std::move(space));
}

template <class Group>
AnyManifold finite_group(const std::string& name, Group group) {
  return AnyManifold(name, std::make_shared<FiniteGroupModel<Group>>(name, std::move(group)));
}

// Each metric of SPD(n) and each deformation family the parameters select, at n = 3.
std::vector<SpaceParams> spd_families() {
  const auto family = [](const std::string& metric,
                         std::initializer_list<std::pair<const std::string, double>> numbers) {
    SpaceParams params{{"n", 3}};
    params.words["metric"] = metric;
    for (const auto& [key, value] : numbers) params.numbers[key] = value;
    return params;
  };
  SpaceParams generalized_bw = family("generalized_bures_wasserstein", {});
  generalized_bw.matrices["M"] = Eigen::Vector3d(0.5, 1.0, 2.0).asDiagonal();
  return {family("affine_invariant", {}),
          family("affine_invariant", {{"theta", 0.5}}),
          family("affine_invariant", {{"alpha", 1.5}, {"beta", -0.2}}),
          family("log_euclidean", {}),
          family("log_euclidean", {{"alpha", 2}, {"beta", 0.5}}),
          family("log_cholesky", {}),
          family("log_cholesky", {{"theta", 1.5}}),
          family("bures_wasserstein", {}),
          generalized_bw};
}

}  // namespace

const std::vector<SpaceInfo>& registered_spaces() {
  static const std::vector<SpaceInfo> spaces = {
      {"sphere", "the sphere Sⁿ ⊂ ℝⁿ⁺¹, round metric", {"n"}, {{{"n", 3}}, {{"n", 1}}}},
      {"so2", "the rotation group SO(2), 2×2 matrices, metric ½·tr(UᵀV)", {}, {{}}},
      {"o2", "the orthogonal group O(2) (reflections too), 2×2 matrices", {}, {{}}},
      {"so", "the rotation group SO(n), n×n matrices, metric ½·tr(UᵀV)", {"n"}, {{{"n", 3}}, {{"n", 4}}}},
      {"o", "the orthogonal group O(n) (both components), n×n matrices", {"n"}, {{{"n", 4}}, {{"n", 3}}}},
      {"se2", "the rigid motions SE(2) of the plane, left-invariant metric (= SO(2) × ℝ²)", {}, {{}}},
      {"e2", "the Euclidean group E(2) = O(2) ⋉ ℝ² (reflections too), left-invariant metric", {}, {{}}},
      {"cn", "the cyclic group C_N of rotations by 2πk/N", {"N"}, {{{"N", 8}}, {{"N", 1}}}},
      {"dn", "the dihedral group D_N of order 2N (rotations and flips x ↦ −x)", {"N"}, {{{"N", 4}}, {{"N", 1}}}},
      {"spd",
       "SPD(n) matrices; metric affine_invariant (default), log_euclidean, log_cholesky, bures_wasserstein or "
       "generalized_bures_wasserstein (matrix M); power deformation theta; (alpha, beta) inner product",
       {"n", "metric", "theta", "alpha", "beta", "M"},
       spd_families()},
      {"stereographic",
       "the κ-stereographic model of constant curvature kappa (Poincaré ball κ < 0, ℝⁿ κ = 0, projected "
       "sphere κ > 0), points in ℝⁿ; gyro ops: Möbius addition, gyration, scalar multiplication",
       {"n", "kappa"},
       {{{"n", 3}, {"kappa", -1}}, {{"n", 3}, {"kappa", 0}}, {{"n", 3}, {"kappa", 0.7}}}},
      {"hyperboloid",
       "hyperbolic n-space (curvature −1), points in ℝⁿ⁺¹ with ⟨x, x⟩_L = −1, x₀ > 0",
       {"n"},
       {{{"n", 3}}, {{"n", 1}}}},
      {"grassmann",
       "the Grassmannian Gr(n, p), points n×p orthonormal bases, dist = √(Σθᵢ²) over the principal angles",
       {"n", "p"},
       {{{"n", 5}, {"p", 2}}, {{"n", 3}, {"p", 1}}}},
      {"stiefel",
       "the Stiefel manifold St(n, p) of orthonormal n×p frames, Euclidean metric tr(UᵀV); log by shooting, "
       "defined within the injectivity radius π; transport by projection",
       {"n", "p"},
       {{{"n", 5}, {"p", 2}}, {{"n", 4}, {"p", 1}}}},
      {"correlation",
       "full-rank correlation matrices Cor⁺(n), poly-Poincaré-ball Cholesky metric and gyro structure (GyroBN)",
       {"n"},
       {{{"n", 3}}, {{"n", 2}}}},
      {"glp",
       "GL⁺(n): matrices with det > 0 (group ops, algebra exp/log, act; no metric)",
       {"n", "scale"},
       {{{"n", 3}}, {{"n", 2}}}},
      {"sl",
       "SL(n): matrices with det = 1 (group ops, algebra exp/log, act; no metric)",
       {"n", "scale"},
       {{{"n", 3}}, {{"n", 2}}}},
      {"lorentz",
       "the Lorentz group SO⁺(1,3), η = diag(1, −1, −1, −1), 4×4 matrices; act on 4-vectors; algebra "
       "(θ₁, θ₂, θ₃, ζ₁, ζ₂, ζ₃) rotation angles and rapidities",
       {"max_rapidity"},
       {{}}},
  };
  return spaces;
}

AnyManifold make_space(const std::string& name, const SpaceParams& params) {
  if (name == "sphere") return manifold(name, Sphere<double>(integer_param(name, params, "n", 1)));
  if (name == "so2") return manifold(name, SO2<double>());
  if (name == "o2") return manifold(name, O2<double>());
  if (name == "so") return manifold(name, SO<double>(integer_param(name, params, "n", 2)));
  if (name == "o") return manifold(name, O<double>(integer_param(name, params, "n", 2)));
  if (name == "se2") return manifold(name, SE2<double>());
  if (name == "e2") return manifold(name, E2<double>());
  if (name == "cn") return finite_group(name, CN<double>(integer_param(name, params, "N", 1)));
  if (name == "dn") return finite_group(name, DN<double>(integer_param(name, params, "N", 1)));
  if (name == "spd") return detail::make_spd_space(name, params);
  if (name == "stereographic" || name == "hyperboloid" || name == "correlation")
    return detail::make_constant_curvature_space(name, params);
  if (name == "grassmann") return detail::make_grassmann_space(name, params);
  if (name == "stiefel") return detail::make_stiefel_space(name, params);
  if (name == "glp" || name == "sl" || name == "lorentz") return detail::make_matrix_group_space(name, params);
  throw DomainError("make_space", "unknown space", name);
}

}  // namespace gyre
