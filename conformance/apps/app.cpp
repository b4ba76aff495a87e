#include "app.hpp"

namespace fibercl_apps {

const char *const kFormNames[3] = {"plain", "prim", "coop"};

namespace {
using MakeApp = std::unique_ptr<App> (*)();
const MakeApp kApps[] = {make_color_app, make_mis_app,    make_sssp_app,
                         make_bfs_app,   make_octree_app, make_game_app};
} // namespace

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (MakeApp make : kApps)
    names.push_back(make()->name()); // cheap: the input is made in prepare()
  return names;
}

std::unique_ptr<App> make_app(const std::string &name) {
  for (MakeApp make : kApps)
    if (auto app = make(); name == app->name())
      return app;
  return nullptr;
}

} // namespace fibercl_apps
