// `ridge info`: what ridge detected about this machine and what it will run.
#include <iostream>

#include "commands.hpp"
#include "ridge/ridge.hpp"

namespace ridge::cli {

void add_info_command(CLI::App& app) {
  CLI::App* info = app.add_subcommand("info", "Show the detected CPU, caches and kernel choice");
  static bool json = false;
  info->add_flag("--json", json, "Print as JSON");
  info->callback([] {
    const Machine& machine = Machine::current();
    if (json) {
      std::cout << "{\"machine\": " << to_json(machine) << ", \"active_isa\": \""
                << isa_name(active_isa()) << "\", \"threads\": " << num_threads() << "}\n";
      return;
    }
    std::cout << describe(machine);
    std::cout << "kernels   " << isa_name(active_isa()) << " (best supported: "
              << isa_name(best_isa()) << "), " << num_threads() << " thread"
              << (num_threads() == 1 ? "" : "s") << '\n';
  });
}

CLI::App& add_bench_command(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Time ridge's kernels, optionally against peers");
  bench->require_subcommand(1);
  return *bench;
}

}  // namespace ridge::cli
