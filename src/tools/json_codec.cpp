#include "json_codec.hpp"

#include <cmath>

#include "gyre/core/error.hpp"
#include "gyre/core/validate.hpp"

namespace gyre::tools {

namespace {

double number(const nlohmann::json& value, const std::string& what) {
  if (!value.is_number()) throw RequestError(what + " has a non-numeric entry: " + value.dump());
  return value.get<double>();
}

nlohmann::json error_reply(const std::string& type, const std::string& message) {
  return nlohmann::json{{"error", {{"type", type}, {"message", message}}}};
}

}  // namespace

nlohmann::json reply_or_error(const std::function<nlohmann::json()>& body) {
  try {
    return body();
  } catch (const nlohmann::json::parse_error& error) {
    return error_reply("RequestError", std::string("malformed JSON: ") + error.what());
  } catch (const RequestError& error) {
    return error_reply("RequestError", error.what());
  } catch (const DomainError& error) {
    return error_reply("DomainError", error.what());
  } catch (const ShapeError& error) {
    return error_reply("ShapeError", error.what());
  } catch (const ConvergenceError& error) {
    return error_reply("ConvergenceError", error.what());
  } catch (const IoError& error) {
    return error_reply("IoError", error.what());
  } catch (const nlohmann::json::exception& error) {
    return error_reply("RequestError", error.what());
  } catch (const std::exception& error) {
    return error_reply("InternalError", error.what());
  }
}

Eigen::MatrixXd decode_matrix(const nlohmann::json& value, const std::string& what) {
  if (value.is_number()) return Eigen::MatrixXd::Constant(1, 1, value.get<double>());
  if (!value.is_array() || value.empty()) {
    throw RequestError(what + " must be a number, a flat array or a list of rows: " + value.dump());
  }
  if (!value[0].is_array()) {
    Eigen::MatrixXd v(value.size(), 1);
    for (std::size_t i = 0; i < value.size(); ++i) v(static_cast<Eigen::Index>(i), 0) = number(value[i], what);
    return v;
  }
  const std::size_t cols = value[0].size();
  Eigen::MatrixXd m(value.size(), cols);
  for (std::size_t r = 0; r < value.size(); ++r) {
    if (!value[r].is_array() || value[r].size() != cols) {
      throw ShapeError("geom", what + " rows must have equal lengths",
                       "row " + std::to_string(r) + " has " + std::to_string(value[r].size()) + " entries, row 0 has " +
                           std::to_string(cols));
    }
    for (std::size_t c = 0; c < cols; ++c) {
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = number(value[r][c], what);
    }
  }
  return m;
}

nlohmann::json encode_vector(const Eigen::MatrixXd& value) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < value.size(); ++i) out.push_back(value(i));
  return out;
}

nlohmann::json encode_rows(const Eigen::MatrixXd& value) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < value.rows(); ++i) out.push_back(encode_vector(value.row(i).transpose()));
  return out;
}

nlohmann::json encode_point(const Eigen::MatrixXd& value, PointEncoding encoding) {
  switch (encoding) {
    case PointEncoding::kInteger:
      return static_cast<long>(std::lround(value(0, 0)));
    case PointEncoding::kIntegerVector: {
      nlohmann::json out = nlohmann::json::array();
      for (Eigen::Index i = 0; i < value.size(); ++i) out.push_back(static_cast<long>(std::lround(value(i))));
      return out;
    }
    case PointEncoding::kVector:
      return encode_vector(value);
    case PointEncoding::kMatrix:
      break;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index r = 0; r < value.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < value.cols(); ++c) row.push_back(value(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json encode_scalar(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

}  // namespace gyre::tools
