#include "geom_command.hpp"

#include <functional>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

#include "gyre/core/error.hpp"
#include "json_codec.hpp"

namespace gyre::tools {

namespace {

using nlohmann::json;
using DynMatrix = AnyManifold::DynMatrix;

struct Request {
  const AnyManifold& space;
  const json& args;
  DynMatrix arg(std::size_t i) const { return decode_matrix(args[i], "args[" + std::to_string(i) + "]"); }
};

struct Op {
  std::size_t arg_count;
  std::function<json(const Request&)> run;
};

// Every op: how many args it takes and how its result is written.
const std::map<std::string, Op>& ops() {
  static const std::map<std::string, Op> table = {
      {"exp",
       {2, [](const Request& r) { return encode_point(r.space.exp(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"log",
       {2, [](const Request& r) { return encode_point(r.space.log(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"transport",
       {3,
        [](const Request& r) {
          return encode_point(r.space.transport(r.arg(0), r.arg(1), r.arg(2)), r.space.point_encoding());
        }}},
      {"inner", {3, [](const Request& r) { return encode_scalar(r.space.inner(r.arg(0), r.arg(1), r.arg(2))); }}},
      {"norm", {2, [](const Request& r) { return encode_scalar(r.space.norm(r.arg(0), r.arg(1))); }}},
      {"dist", {2, [](const Request& r) { return encode_scalar(r.space.dist(r.arg(0), r.arg(1))); }}},
      {"project",
       {2,
        [](const Request& r) { return encode_point(r.space.project(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"retract",
       {2,
        [](const Request& r) { return encode_point(r.space.retract(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"egrad_to_rgrad",
       {2,
        [](const Request& r) {
          return encode_point(r.space.egrad_to_rgrad(r.arg(0), r.arg(1)), r.space.point_encoding());
        }}},
      {"check_point",
       {1,
        [](const Request& r) {
          r.space.check_point(r.arg(0));
          return json(true);
        }}},
      {"mean",
       {1,
        [](const Request& r) {
          if (!r.args[0].is_array()) throw RequestError("mean takes one argument, a list of points");
          std::vector<DynMatrix> points;
          for (std::size_t i = 0; i < r.args[0].size(); ++i) {
            points.push_back(decode_matrix(r.args[0][i], "args[0][" + std::to_string(i) + "]"));
          }
          return encode_point(r.space.mean(points), r.space.point_encoding());
        }}},
      {"identity", {0, [](const Request& r) { return encode_point(r.space.identity(), r.space.point_encoding()); }}},
      {"compose",
       {2,
        [](const Request& r) { return encode_point(r.space.compose(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"inverse",
       {1, [](const Request& r) { return encode_point(r.space.inverse(r.arg(0)), r.space.point_encoding()); }}},
      {"act", {2, [](const Request& r) { return encode_vector(r.space.act(r.arg(0), r.arg(1))); }}},
      {"algebra_exp",
       {1, [](const Request& r) { return encode_point(r.space.algebra_exp(r.arg(0)), r.space.point_encoding()); }}},
      {"algebra_log", {1, [](const Request& r) { return encode_vector(r.space.algebra_log(r.arg(0))); }}},
      {"gyro_add",
       {2,
        [](const Request& r) { return encode_point(r.space.gyro_add(r.arg(0), r.arg(1)), r.space.point_encoding()); }}},
      {"gyro_inverse",
       {1, [](const Request& r) { return encode_point(r.space.gyro_inverse(r.arg(0)), r.space.point_encoding()); }}},
      {"gyration",
       {3,
        [](const Request& r) {
          return encode_point(r.space.gyration(r.arg(0), r.arg(1), r.arg(2)), r.space.point_encoding());
        }}},
      {"gyro_scale",
       {2,
        [](const Request& r) {
          if (!r.args[0].is_number()) throw RequestError("gyro_scale takes (r, a) with r a number");
          return encode_point(r.space.gyro_scale(r.args[0].get<double>(), r.arg(1)), r.space.point_encoding());
        }}},
  };
  return table;
}

// Numbers, words and matrices (arrays of rows), as SpaceParams holds them.
SpaceParams read_params(const json& request) {
  SpaceParams params;
  if (!request.contains("params")) return params;
  const json& given = request["params"];
  if (!given.is_object()) throw RequestError("\"params\" must be an object");
  for (const auto& [key, value] : given.items()) {
    if (value.is_number()) {
      params.numbers[key] = value.get<double>();
    } else if (value.is_string()) {
      params.words[key] = value.get<std::string>();
    } else if (value.is_array()) {
      params.matrices[key] = decode_matrix(value, "parameter \"" + key + "\"");
    } else {
      throw RequestError("parameter \"" + key + "\" must be a number, a string or a matrix: " + value.dump());
    }
  }
  return params;
}

json answer_parsed(const json& request, SpaceCache& cache) {
  if (!request.is_object()) throw RequestError("a request must be a JSON object");
  if (!request.contains("space") || !request["space"].is_string()) {
    throw RequestError("missing \"space\" (a string such as \"so\")");
  }
  if (!request.contains("op") || !request["op"].is_string()) {
    throw RequestError("missing \"op\" (a string such as \"log\")");
  }
  const std::string op_name = request["op"];
  const auto op = ops().find(op_name);
  if (op == ops().end()) throw RequestError("unknown op \"" + op_name + "\"");
  const json args = request.contains("args") ? request["args"] : json::array();
  if (!args.is_array()) throw RequestError("\"args\" must be an array");
  if (args.size() != op->second.arg_count) {
    throw RequestError("op \"" + op_name + "\" takes " + std::to_string(op->second.arg_count) + " args, got " +
                       std::to_string(args.size()));
  }
  const AnyManifold& space = cache.get(request["space"], read_params(request));
  return json{{"result", op->second.run(Request{space, args})}};
}

}  // namespace

const AnyManifold& SpaceCache::get(const std::string& name, const SpaceParams& params) {
  std::ostringstream key;
  key << name;
  key.precision(17);
  for (const auto& [k, v] : params.numbers) key << ';' << k << '=' << v;
  for (const auto& [k, v] : params.words) key << ';' << k << '=' << v;
  for (const auto& [k, v] : params.matrices) key << ';' << k << '=' << v.reshaped().transpose();
  const auto found = spaces_.find(key.str());
  if (found != spaces_.end()) return found->second;
  return spaces_.emplace(key.str(), make_space(name, params)).first->second;
}

json answer(const std::string& line, SpaceCache& cache) {
  return reply_or_error([&] { return answer_parsed(json::parse(line), cache); });
}

void run_geom(std::istream& in, std::ostream& out) {
  SpaceCache cache;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out << answer(line, cache).dump() << std::endl;  // endl: flush each reply for pipes
  }
}

std::string list_spaces() {
  std::ostringstream out;
  for (const SpaceInfo& info : registered_spaces()) {
    out << info.name;
    for (const std::string& p : info.parameter_names) out << ' ' << p;
    out << "\t" << info.description << "\n";
  }
  return out.str();
}

}  // namespace gyre::tools
