#pragma once
// ============================================================================================
//  The gyrogroup interface: the algebra GyroBN normalises with (Ungar 2008; Chen et al. 2025).
// ============================================================================================
//  A gyrogroup is a set with a binary operation ⊕ that is a group "up to a rotation": the
//  failure of associativity is the gyration gyr[a, b], an automorphism.
//  Types    Scalar, Point (the space's points; the gyrogroup's elements).
//  Members (all const, [[nodiscard]])
//    gyro_identity()        the identity e.
//    gyro_add(a, b)         a ⊕ b.
//    gyro_inverse(a)        ⊖a, with ⊖a ⊕ a = e.
//    gyration(a, b, c)      gyr[a, b]c, in closed form where one exists.
//    gyro_scale(r, a)       r ⊗ a = exp_e(r·log_e(a)) (the gyrovector-space scalar multiplication).
//  Laws (gyre::check::gyrogroup_laws, on ≥ 200 seeded triples per instance):
//    left identity            e ⊕ a = a
//    left inverse             ⊖a ⊕ a = e
//    left gyroassociativity   a ⊕ (b ⊕ c) = (a ⊕ b) ⊕ gyr[a, b]c
//    gyr[a, b] is the defect  gyr[a, b]c = ⊖(a ⊕ b) ⊕ (a ⊕ (b ⊕ c))
//    automorphism             gyr[a, b](c ⊕ d) = gyr[a, b]c ⊕ gyr[a, b]d
//    left loop property       gyr[a ⊕ b, b] = gyr[a, b]
//    left cancellation        ⊖a ⊕ (a ⊕ b) = b
//    gyroisometric gyrations  d(gyr[a, b]c, gyr[a, b]d) = d(c, d)          (GyroBN's condition)
//    pseudo-reduction         gyr[⊖a, a] = gyr[a, ⊖a] = id                  (GyroBN's condition:
//                             the left reduction law asked of inverse pairs only)
//    isometric translations   d(a ⊕ c, a ⊕ d) = d(c, d), which the two conditions give through
//                             ⊖(a ⊕ c) ⊕ (a ⊕ d) = gyr[a, c](⊖c ⊕ d): centring a batch by ⊖mean
//                             does not distort it
//    scalar laws              1 ⊗ a = a, (r + s) ⊗ a = r ⊗ a ⊕ s ⊗ a, r ⊗ (s ⊗ a) = (rs) ⊗ a
//  Optional member
//    gyro_law_shrink()      a factor in (0, 1] (absent: 1) by which the law checker pulls
//                           random_point's points towards e along geodesics, for gyrogroups whose
//                           ⊕ is defined only near e (the projected sphere κ > 0, the Grassmannian).
// ============================================================================================

#include <type_traits>
#include <utility>

#include "gyre/core/manifold.hpp"

namespace gyre {

/// A gyrogroup (requirements and laws above).
template <class G, class = void>
struct is_gyrogroup : std::false_type {};

template <class G>
struct is_gyrogroup<
    G,
    std::void_t<
        typename G::Scalar, typename G::Point, decltype(detail::cref<G>().gyro_identity()),
        decltype(detail::cref<G>().gyro_add(detail::arg<typename G::Point>(), detail::arg<typename G::Point>())),
        decltype(detail::cref<G>().gyro_inverse(detail::arg<typename G::Point>())),
        decltype(detail::cref<G>().gyration(detail::arg<typename G::Point>(), detail::arg<typename G::Point>(),
                                            detail::arg<typename G::Point>())),
        decltype(detail::cref<G>().gyro_scale(std::declval<typename G::Scalar>(), detail::arg<typename G::Point>()))>>
    : std::is_floating_point<typename G::Scalar> {};

template <class G>
inline constexpr bool is_gyrogroup_v = is_gyrogroup<G>::value;

}  // namespace gyre
