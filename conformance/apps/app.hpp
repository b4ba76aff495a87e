// What the runner (main.cpp) knows of an evaluation application: its input, its host
// reference and its check, per form of kernels/<name>_<form>.cl.
#pragma once

#include "cl_harness.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fibercl_apps {

// README.md "Forms": plain = hand-written barrier or mutex over all launched groups,
// prim = <fibercl/primitives.h>, coop = <fibercl/cooperative.h>.
enum Form { PLAIN, PRIM, COOP };
extern const char *const kFormNames[3]; // indexed by Form

class App {
public:
  virtual ~App() = default;
  virtual const char *name() const = 0;
  // true: work stealing (queues behind mutexes); false: level loop with global barriers.
  // It decides the form's synchronisation arguments, which come before the app's.
  virtual bool work_stealing() const = 0;
  // Inputs and the host reference; once.
  virtual void prepare() = 0;
  virtual std::string describe() const = 0;
  // Device buffers with the initial state, before every run of `groups` groups.
  virtual void reset(Cl &cl, size_t groups) = 0;
  // The app's arguments, after the form's synchronisation arguments.
  virtual void set_args(Args a, Form f, size_t groups) = 0;
  // "" if the run's result is right, else why not.
  virtual std::string verify(Cl &cl) = 0;

protected:
  Buffers bufs; // the app's device buffers by name
};

// The apps in the order `all` runs them.
std::vector<std::string> app_names();
// nullptr if there is no such app.
std::unique_ptr<App> make_app(const std::string &name);

// One per app, beside its class.
std::unique_ptr<App> make_color_app();
std::unique_ptr<App> make_mis_app();
std::unique_ptr<App> make_sssp_app();
std::unique_ptr<App> make_bfs_app();
std::unique_ptr<App> make_octree_app();
std::unique_ptr<App> make_game_app();

} // namespace fibercl_apps
