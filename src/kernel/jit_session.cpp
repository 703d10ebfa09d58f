#include "jit_session.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Interpreter/Interpreter.h>
#include <clang/Interpreter/PartialTranslationUnit.h>
#include <clang/Lex/DirectoryLookup.h>
#include <clang/Lex/HeaderSearch.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/Scope.h>
#include <clang/Sema/Sema.h>
#include <cxxabi.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "cell_program.hpp"
#include "cell_splitter.hpp"
#include "live_output_pump.hpp"
#include "output_capture.hpp"

#ifndef GYRE_KERNEL_CLANG_RESOURCE_DIR
#error "GYRE_KERNEL_CLANG_RESOURCE_DIR must name clang's resource directory (builtin headers)"
#endif

namespace {

// The exception a statement group reported (through the hooks below) during the current cell.
struct ReportedException {
  bool failed = false;
  std::string cell, type, what;
};
ReportedException g_reported;

// Diagnostics as text, without warnings located in system headers: a compiler hides those by
// default, but clang 14's incremental parser shows them (libstdc++'s <chrono> names a GCC-only
// warning group in a pragma, and every cell including it would say so).
class CellDiagnosticPrinter : public clang::TextDiagnosticPrinter {
 public:
  using clang::TextDiagnosticPrinter::TextDiagnosticPrinter;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    if (level <= clang::DiagnosticsEngine::Warning && info.hasSourceManager() && info.getLocation().isValid() &&
        info.getSourceManager().isInSystemHeader(info.getLocation())) {
      return;
    }
    clang::TextDiagnosticPrinter::HandleDiagnostic(level, info);
  }
};

std::string demangle(const char* name) {
  if (name == nullptr) return "unknown exception";
  int status = 0;
  char* readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && readable != nullptr ? readable : name;
  std::free(readable);
  return out;
}

}  // namespace

// Called from JIT-compiled cells (see statement_runner_prelude); exported by -rdynamic.
extern "C" __attribute__((visibility("default"))) void gyre_kernel_report_exception(const char* cell, const char* type,
                                                                                    const char* what) {
  g_reported = {true, cell, demangle(type), what == nullptr ? "" : what};
}

extern "C" __attribute__((visibility("default"))) int gyre_kernel_cell_failed() { return g_reported.failed; }

namespace gyre::kernel {
namespace {

std::string to_string(llvm::Error error) {
  std::string text;
  llvm::raw_string_ostream out(text);
  llvm::logAllUnhandledErrors(std::move(error), out);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// clang 14's incremental compilation keeps every input in one translation unit but emits each
// into its own LLVM module. A function with internal linkage (a `static inline` helper of a
// system header, an anonymous-namespace function) is defined in the module of the input that
// first parsed it and is invisible to later modules, which then fail to link. Giving those
// definitions weak linkage makes them visible and lets duplicates collapse. Names with '$' are
// clang's per-module numbering of unnamed types (lambdas in initializers) and must stay local:
// two cells' `$_0` are different functions. A top-level variable whose type has no linkage
// (`auto f = [](…) {…};`) is internal too, under its plain name, and a later cell that calls it
// needs it; compiler-made names (`__cxx_global_var_init.3`, `.str`, `_GLOBAL__sub_I_…`) are
// per-module and stay local. Collapsing by name is safe because all cells share one translation
// unit, where a name is defined once. Private definitions are never shared: they are the
// compiler's own per-module data, some under plain names — the backing array of an initializer
// list is `constinit` in every module, and sharing it gave a cell the numbers of an earlier one.
bool is_shared_across_cells(llvm::StringRef name) {
  if (name.contains('$') || name.contains('.')) return false;
  if (name.startswith("_Z")) return true;
  return !name.startswith("__") && !name.startswith("_GLOBAL_") && !name.empty();
}

void expose_internal_definitions(llvm::Module& module) {
  for (llvm::GlobalValue& value : module.global_values()) {
    if (value.hasInternalLinkage() && !value.isDeclaration() && is_shared_across_cells(value.getName())) {
      value.setLinkage(llvm::GlobalValue::WeakODRLinkage);
      value.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
  }
}

}  // namespace

struct JitSession::Impl {
  std::unique_ptr<clang::Interpreter> interpreter;
  std::string diagnostics;
  std::unique_ptr<llvm::raw_string_ostream> diagnostics_stream;
  std::vector<std::string> library_paths;
  int statement_group = 0;

  clang::CompilerInstance& compiler() {
    return *const_cast<clang::CompilerInstance*>(interpreter->getCompilerInstance());
  }

  std::string take_diagnostics() {
    diagnostics_stream->flush();
    std::string text;
    text.swap(diagnostics);
    return text;
  }

  // The translation-unit declarations of the accepted inputs (clang gives each input its own).
  std::unordered_set<const clang::TranslationUnitDecl*> accepted_units() {
    std::unordered_set<const clang::TranslationUnitDecl*> units;
    for (const clang::TranslationUnitDecl* unit = compiler().getASTContext().getTranslationUnitDecl(); unit != nullptr;
         unit = unit->getPreviousDecl()) {
      units.insert(unit);
    }
    return units;
  }

  // clang 14 does not fully roll back an input that fails to compile: its declarations stay
  // visible to name lookup, and re-running the corrected cell reports "redefinition of 'x'".
  // This removes every declaration made outside the inputs accepted before the failed one.
  void forget_declarations_outside(const std::unordered_set<const clang::TranslationUnitDecl*>& accepted) {
    clang::CompilerInstance& ci = compiler();
    if (!ci.hasSema()) return;
    clang::Sema& sema = ci.getSema();
    std::vector<clang::NamedDecl*> failed;
    for (const auto& entry : ci.getPreprocessor().getIdentifierTable()) {
      for (auto it = sema.IdResolver.begin(entry.getValue()); it != sema.IdResolver.end(); ++it) {
        if (accepted.count((*it)->getTranslationUnitDecl()) == 0) failed.push_back(*it);
      }
    }
    for (clang::NamedDecl* declaration : failed) {
      sema.IdResolver.RemoveDecl(declaration);
      if (sema.TUScope != nullptr) sema.TUScope->RemoveDecl(declaration);
      clang::DeclContext* context = declaration->getLexicalDeclContext();
      if (context != nullptr && context->containsDecl(declaration)) context->removeDecl(declaration);
    }
  }

  void add_include_path(const std::string& path) {
    clang::CompilerInstance& ci = compiler();
    auto directory = ci.getFileManager().getOptionalDirectoryRef(path);
    if (!directory) throw std::invalid_argument("add_include_path: no such directory: " + path);
    ci.getPreprocessor().getHeaderSearchInfo().AddSearchPath(
        clang::DirectoryLookup(*directory, clang::SrcMgr::C_User, /*isFramework=*/false), /*isAngled=*/true);
  }

  // "libgyre", "gyre", "libgyre.so" or a path; the library paths first, then the system's.
  void load(const std::string& name) {
    namespace fs = std::filesystem;
    std::vector<std::string> candidates;
    if (name.find('/') != std::string::npos) {
      candidates.push_back(name);
    } else {
      const std::string base = name.rfind("lib", 0) == 0 ? name : "lib" + name;
      for (const std::string& dir : library_paths) {
        for (const std::string& file : {name, name + ".so", base + ".so"}) candidates.push_back(dir + "/" + file);
      }
      candidates.push_back(name.size() > 3 && name.substr(name.size() - 3) == ".so" ? name : base + ".so");
    }
    std::string why;
    for (const std::string& candidate : candidates) {
      if (candidate.find('/') != std::string::npos && !fs::exists(candidate)) continue;
      if (!llvm::sys::DynamicLibrary::LoadLibraryPermanently(candidate.c_str(), &why)) return;
    }
    throw std::invalid_argument("load: cannot load " + name +
                                (why.empty() ? " (not found in the library paths)" : ": " + why));
  }

  void apply(const ClingPragma& pragma) {
    switch (pragma.kind) {
      case ClingPragma::Kind::add_include_path:
        add_include_path(pragma.argument);
        break;
      case ClingPragma::Kind::add_library_path:
        library_paths.push_back(pragma.argument);
        break;
      case ClingPragma::Kind::load:
        load(pragma.argument);
        break;
    }
  }
};

JitSession::JitSession(const JitOptions& options) : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Without the asm parser, inline assembly in system headers is a fatal error of the JIT.
  llvm::InitializeNativeTargetAsmParser();

  std::vector<std::string> args = {
      "-xc++", "-std=c++17", "-resource-dir", GYRE_KERNEL_CLANG_RESOURCE_DIR,
      // clang 14 forgets inline definitions deferred in one input when a later input uses them;
      // emitting every declaration as it is parsed keeps them.
      "-femit-all-decls",
      // Optimisation passes delete always-inline linkonce functions after inlining them, and a
      // later cell that calls them then fails to link.
      "-Xclang", "-disable-llvm-passes",
      // With all declarations emitted, clang 14's <immintrin.h> (included by Eigen under AVX)
      // emits AMX helpers that need these features; nothing here executes AMX instructions.
      "-mamx-tile", "-mamx-int8", "-mamx-bf16", "-fno-color-diagnostics"};
  for (const std::string& flag : options.compiler_flags) args.push_back(flag);
  for (const std::string& dir : options.include_paths) args.push_back("-I" + dir);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  auto compiler = clang::IncrementalCompilerBuilder::create(argv);
  if (!compiler) throw std::runtime_error("gyre-kernel: cannot set up clang: " + to_string(compiler.takeError()));
  clang::CompilerInstance& ci = **compiler;
  impl_->diagnostics_stream = std::make_unique<llvm::raw_string_ostream>(impl_->diagnostics);
  auto* printer = new CellDiagnosticPrinter(*impl_->diagnostics_stream, &ci.getDiagnosticOpts());
  ci.getDiagnostics().setClient(printer, /*ShouldOwnClient=*/true);
  // A missing header is a fatal error, after which clang 14's incremental parser crashes on the
  // next input; as a plain error it is rolled back like any other.
  ci.getDiagnostics().setFatalsAsError(true);

  auto interpreter = clang::Interpreter::create(std::move(*compiler));
  if (!interpreter)
    throw std::runtime_error("gyre-kernel: cannot start clang's interpreter: " + to_string(interpreter.takeError()));
  impl_->interpreter = std::move(*interpreter);
  printer->BeginSourceFile(impl_->compiler().getLangOpts(), &impl_->compiler().getPreprocessor());

  impl_->library_paths = options.library_paths;

  if (auto error = impl_->interpreter->ParseAndExecute(statement_runner_prelude())) {
    throw std::runtime_error("gyre-kernel: cannot compile the statement runner: " + to_string(std::move(error)) +
                             impl_->take_diagnostics());
  }
}

JitSession::~JitSession() = default;

CellOutcome JitSession::run_cell(int number, std::string_view code, const LiveOutput& live) {
  const std::string cell_name = "In[" + std::to_string(number) + "]";
  CellOutcome outcome;
  auto fail = [&](std::string name, std::string value, std::vector<std::string> traceback) {
    outcome.ok = false;
    outcome.error_name = std::move(name);
    outcome.error_value = std::move(value);
    outcome.traceback = std::move(traceback);
  };

  const std::vector<CellChunk> chunks = split_cell(code);
  try {
    for (const CellChunk& chunk : chunks) {
      if (chunk.kind == ChunkKind::cling_pragma) impl_->apply(parse_cling_pragma(chunk.text));
    }
  } catch (const std::exception& e) {
    fail("PragmaError", cell_name + ": " + e.what(), {cell_name + ": " + e.what()});
    return outcome;
  }
  const std::string source = assemble_cell(chunks, cell_name, impl_->statement_group);
  if (source.empty()) return outcome;

  g_reported = {};
  OutputCapture capture;
  std::string diagnostics;
  const auto accepted = impl_->accepted_units();
  auto unit = impl_->interpreter->Parse(source);
  diagnostics = impl_->take_diagnostics();
  if (!unit) {
    llvm::consumeError(unit.takeError());
    impl_->forget_declarations_outside(accepted);
    std::vector<std::string> lines = lines_of(diagnostics);
    std::string first_error = lines.empty() ? "the cell does not compile" : lines.front();
    for (const std::string& line : lines) {
      if (line.find("error:") != std::string::npos) {
        first_error = line;
        break;
      }
    }
    outcome.output = diagnostics + capture.finish();
    fail("CompileError", first_error, lines);
    return outcome;
  }
  std::string exception_type, exception_what;
  if (unit->TheModule) {
    expose_internal_definitions(*unit->TheModule);
    if (live && !diagnostics.empty()) {  // warnings come before what the cell prints
      live(diagnostics);
      diagnostics.clear();
    }
    std::string link_error;
    {
      // The pump reads the capture while the cell runs; it must stop before capture.finish().
      LiveOutputPump pump(capture, live);
      try {
        if (auto error = impl_->interpreter->Execute(*unit)) link_error = to_string(std::move(error));
      } catch (const std::exception& e) {  // thrown by the initializer of a top-level declaration
        exception_type = demangle(typeid(e).name());
        exception_what = e.what();
      } catch (...) {
        exception_type = "unknown exception";
      }
    }
    if (!link_error.empty()) {
      outcome.output = diagnostics + capture.finish();
      // ORC names the missing symbols on stderr ("JIT session error: Symbols not found: [ … ]")
      // and returns only "Failed to materialize …"; the missing names are what the user needs.
      std::string summary = lines_of(link_error).front();
      for (const std::string& line : lines_of(outcome.output)) {
        if (line.find("Symbols not found") != std::string::npos) summary = line;
      }
      std::vector<std::string> traceback = lines_of(link_error);
      traceback.insert(traceback.begin(), summary);
      fail("LinkError", cell_name + ": " + summary, traceback);
      // ORC keeps the failed module's initializer pending and retries it, failing once more, on
      // the next execution; a throwaway input takes that failure so the user's next cell runs.
      llvm::consumeError(impl_->interpreter->ParseAndExecute("static const int gyre_kernel_after_link_error_" +
                                                             std::to_string(impl_->statement_group++) + " = 0;"));
      impl_->take_diagnostics();
      return outcome;
    }
  }
  outcome.output = diagnostics + capture.finish();
  if (g_reported.failed) {
    exception_type = g_reported.type;
    exception_what = g_reported.what;
  }
  if (!exception_type.empty()) {
    fail(exception_type, exception_what, {cell_name + ": " + exception_type + ": " + exception_what});
  }
  return outcome;
}

}  // namespace gyre::kernel
