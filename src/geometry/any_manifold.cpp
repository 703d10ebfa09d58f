// AnyManifold's forwarding members (the models live in any_manifold_model.hpp).
#include "gyre/geometry/any_manifold.hpp"

#include "gyre/geometry/any_manifold_model.hpp"

namespace gyre {

AnyManifold::AnyManifold(std::string name, std::shared_ptr<const Concept> model)
    : name_(std::move(name)), self_(std::move(model)) {}

bool AnyManifold::is_manifold() const { return self_->is_manifold(); }
bool AnyManifold::is_lie_group() const { return self_->is_lie_group(); }
bool AnyManifold::is_finite_group() const { return self_->is_finite_group(); }
PointEncoding AnyManifold::point_encoding() const { return self_->point_encoding(); }
int AnyManifold::dim() const { return self_->dim(); }
std::shared_ptr<const BatchSpace<double>> AnyManifold::batch_space() const {
  auto space = self_->batch_space();
  if (!space) throw DomainError("AnyManifold::batch_space", "the space is not a manifold with a metric in Gyre", name_);
  return space;
}

using DynMatrix = AnyManifold::DynMatrix;

DynMatrix AnyManifold::exp(const DynMatrix& x, const DynMatrix& v) const { return self_->exp(x, v); }
DynMatrix AnyManifold::log(const DynMatrix& x, const DynMatrix& y) const { return self_->log(x, y); }
DynMatrix AnyManifold::transport(const DynMatrix& x, const DynMatrix& y, const DynMatrix& v) const {
  return self_->transport(x, y, v);
}
double AnyManifold::inner(const DynMatrix& x, const DynMatrix& u, const DynMatrix& v) const {
  return self_->inner(x, u, v);
}
double AnyManifold::norm(const DynMatrix& x, const DynMatrix& v) const { return self_->norm(x, v); }
double AnyManifold::dist(const DynMatrix& x, const DynMatrix& y) const { return self_->dist(x, y); }
DynMatrix AnyManifold::project(const DynMatrix& x, const DynMatrix& v) const { return self_->project(x, v); }
DynMatrix AnyManifold::retract(const DynMatrix& x, const DynMatrix& v) const { return self_->retract(x, v); }
DynMatrix AnyManifold::egrad_to_rgrad(const DynMatrix& x, const DynMatrix& g) const {
  return self_->egrad_to_rgrad(x, g);
}
DynMatrix AnyManifold::mean(const std::vector<DynMatrix>& points) const { return self_->mean(points); }
DynMatrix AnyManifold::random_point(Rng& rng) const { return self_->random_point(rng); }
DynMatrix AnyManifold::random_tangent(const DynMatrix& x, Rng& rng) const { return self_->random_tangent(x, rng); }
void AnyManifold::check_point(const DynMatrix& x) const { self_->check_point(x); }
void AnyManifold::check_tangent(const DynMatrix& x, const DynMatrix& v) const { self_->check_tangent(x, v); }
DynMatrix AnyManifold::identity() const { return self_->identity(); }
DynMatrix AnyManifold::compose(const DynMatrix& g, const DynMatrix& h) const { return self_->compose(g, h); }
DynMatrix AnyManifold::inverse(const DynMatrix& g) const { return self_->inverse(g); }
DynMatrix AnyManifold::act(const DynMatrix& g, const DynMatrix& p) const { return self_->act(g, p); }
DynMatrix AnyManifold::algebra_exp(const DynMatrix& a) const { return self_->algebra_exp(a); }
DynMatrix AnyManifold::algebra_log(const DynMatrix& g) const { return self_->algebra_log(g); }
DynMatrix AnyManifold::gyro_add(const DynMatrix& a, const DynMatrix& b) const { return self_->gyro_add(a, b); }
DynMatrix AnyManifold::gyro_inverse(const DynMatrix& a) const { return self_->gyro_inverse(a); }
DynMatrix AnyManifold::gyration(const DynMatrix& a, const DynMatrix& b, const DynMatrix& c) const {
  return self_->gyration(a, b, c);
}
DynMatrix AnyManifold::gyro_scale(double r, const DynMatrix& a) const { return self_->gyro_scale(r, a); }
std::vector<std::pair<std::string, double>> AnyManifold::self_check(std::size_t cases) const {
  return self_->self_check(cases);
}

}  // namespace gyre
