// ridge: machine information, benchmarks, probes and reports from the command line.
#include <exception>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ridge: GEMM and attention kernels measured against what this machine can do"};
  app.require_subcommand(1);
  ridge::cli::add_info_command(app);
  CLI::App& bench = ridge::cli::add_bench_command(app);
  ridge::cli::add_bench_gemm_command(bench);
  ridge::cli::add_bench_gemv_command(bench);
  ridge::cli::add_bench_attention_command(bench);
  ridge::cli::add_probe_command(app);
  ridge::cli::add_tune_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "ridge: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
