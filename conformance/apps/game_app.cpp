// game (README.md): the minimax value of noughts and crosses by work stealing with
// fork/join, checked node by node against the host's memoised minimax.
#include "ws_app.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace fibercl_apps {
namespace {

struct GameNode { // game_node of game_common.cl
  cl_int parent;
  cl_uint xb, ob;
  cl_int depth, pending, value;
};
static_assert(sizeof(GameNode) == 24, "game_node layout");

class GameApp : public WsApp {
  static constexpr int kSplit = 5; // nodes above this depth fork, nodes at it are searched
  std::vector<signed char> memo;   // minimax value per (xb << 9 | ob), 9 = not yet
  int ref_nodes = 0, ref_searched = 0;

  static bool line(uint32_t b) {
    static const uint32_t lines[8] = {0x007, 0x038, 0x1c0, 0x049, 0x092, 0x124, 0x111, 0x054};
    for (uint32_t l : lines)
      if ((b & l) == l)
        return true;
    return false;
  }
  static bool x_moves(uint32_t xb, uint32_t ob) {
    return __builtin_popcount(xb) == __builtin_popcount(ob);
  }
  static int final_value(uint32_t xb, uint32_t ob) { // 2 = not finished
    return line(xb) ? 1 : line(ob) ? -1 : (xb | ob) == 0x1ff ? 0 : 2;
  }
  int value(uint32_t xb, uint32_t ob) {
    signed char &m = memo[xb << 9 | ob];
    if (m != 9)
      return m;
    int v = final_value(xb, ob);
    if (v == 2) {
      const bool xm = x_moves(xb, ob);
      v = xm ? -2 : 2;
      for (int c = 0; c < 9; ++c)
        if (!((xb | ob) >> c & 1)) {
          const int cv = xm ? value(xb | 1u << c, ob) : value(xb, ob | 1u << c);
          v = xm ? std::max(v, cv) : std::min(v, cv);
        }
    }
    return m = static_cast<signed char>(v);
  }
  // Nodes of the task tree below (and including) this position.
  void count(uint32_t xb, uint32_t ob, int depth) {
    ++ref_nodes;
    if (final_value(xb, ob) != 2)
      return;
    if (depth >= kSplit) {
      ++ref_searched;
      return;
    }
    for (int c = 0; c < 9; ++c)
      if (!((xb | ob) >> c & 1))
        x_moves(xb, ob) ? count(xb | 1u << c, ob, depth + 1) : count(xb, ob | 1u << c, depth + 1);
  }

public:
  const char *name() const override { return "game"; }
  void prepare() override {
    memo.assign(1 << 18, 9);
    value(0, 0);
    count(0, 0, 0);
    node_cap = 2 * ref_nodes + 64;
  }
  std::string describe() const override {
    return format("noughts and crosses from the empty board: %d task nodes (fork above "
                  "depth %d, %d searched subtrees), value %d",
                  ref_nodes, kSplit, ref_searched, int(memo[0]));
  }
  void reset_tasks(Cl &cl) override {
    std::vector<GameNode> nodes(node_cap, GameNode{0, 0, 0, 0, 0, 0});
    nodes[0] = GameNode{-1, 0, 0, 0, 0, -2}; // the root: X to move, folds with max
    bufs.upload(cl, "nodes", nodes);
    bufs.upload(cl, "node_count", std::vector<int>{1});
  }
  void set_task_args(Args &a) override {
    a.mem(bufs["nodes"]).mem(bufs["node_count"]).i32(node_cap).i32(kSplit);
  }
  std::string verify_tasks(Cl &cl) override {
    const int count = cl.read1<int>(bufs["node_count"]);
    if (count != ref_nodes)
      return format("%d task nodes, the host's tree has %d", count, ref_nodes);
    auto nodes = cl.read<GameNode>(bufs["nodes"], count);
    std::set<std::tuple<int, uint32_t, uint32_t>> unique;
    for (int i = 0; i < count; ++i) {
      const GameNode &n = nodes[i];
      if (i > 0) { // a child is its parent's position plus one stone of the mover
        if (n.parent < 0 || n.parent >= count)
          return format("node %d has parent %d", i, n.parent);
        const GameNode &p = nodes[n.parent];
        const bool xm = x_moves(p.xb, p.ob);
        const uint32_t added = xm ? n.xb ^ p.xb : n.ob ^ p.ob;
        if ((xm ? n.ob != p.ob : n.xb != p.xb) || __builtin_popcount(added) != 1 ||
            (added & (p.xb | p.ob)) || n.depth != p.depth + 1)
          return format("node %d is not a move from its parent %d", i, n.parent);
        if (!unique.insert({n.parent, n.xb, n.ob}).second)
          return format("node %d repeats a move of node %d", i, n.parent);
      }
      if (n.pending != 0)
        return format("node %d still waits for %d children", i, n.pending);
      const int want = value(n.xb, n.ob);
      if (n.value != want)
        return format("node %d (depth %d) has value %d, minimax %d", i, n.depth, n.value, want);
    }
    return "";
  }
};

} // namespace

std::unique_ptr<App> make_game_app() { return std::make_unique<GameApp>(); }

} // namespace fibercl_apps
