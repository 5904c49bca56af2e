// The subcommands of the `ridge` program, each registered on the CLI11 application.
#pragma once

#include <CLI/CLI.hpp>

namespace ridge::cli {

void add_info_command(CLI::App& app);
// `ridge bench <kernel>`: returns the `bench` command so other kernels can add theirs.
CLI::App& add_bench_command(CLI::App& app);
void add_bench_gemm_command(CLI::App& bench);
void add_bench_attention_command(CLI::App& bench);
void add_bench_gemv_command(CLI::App& bench);
void add_probe_command(CLI::App& app);
void add_tune_command(CLI::App& app);

}  // namespace ridge::cli
