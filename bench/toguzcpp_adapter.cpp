// A line-protocol front for Haller125/toguzcpp's search, for bench/togyz_strength.py.
//
// Our code only: it includes toguzcpp's headers and links its toguznative.cpp and search.cpp,
// which bench/build_toguzcpp.py extracts from the mirrored repository (with the overflow fix)
// and compiles with this file. The protocol (bench/togyz_strength.py's docstring):
//
//   new                                   -> ok
//   go MS PLAYER C0..C17 T0 T1 K0 K1      -> bestmove CELL depth D score S ms T
//   apply CELL PLAYER C0..C17 T0 T1 K0 K1 -> position C0..C17 T0 T1 K0 K1
//   quit                                  -> (exits)
//
// The search is toguzcpp's iterative deepening, unrolled here only to report the deepest
// iteration it finished (its own function does not return it): the same depths, windows and
// time check, on one table kept for the whole game.

#include <array>
#include <atomic>
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "search.h"
#include "toguznative.h"

// search.cpp's time check reads this global (not declared in its header).
extern std::chrono::steady_clock::time_point deadline;

namespace {

constexpr int kMaxDepth = 60;  // killer_moves in search.cpp has 64 rows

bool read_position(std::istringstream& in, ToguzNative& game) {
    for (int i = 0; i < 18; ++i) {
        int count;
        if (!(in >> count)) return false;
        game.cells[i] = static_cast<u_int8_t>(count);
    }
    for (int side = 0; side < 2; ++side) {
        int tuzdyk;
        if (!(in >> tuzdyk)) return false;
        game.tuzdeks[side] = static_cast<u_int8_t>(tuzdyk);
    }
    for (int side = 0; side < 2; ++side) {
        int kazan;
        if (!(in >> kazan)) return false;
        game.scores[side] = static_cast<u_int8_t>(kazan);
    }
    return true;
}

std::string position_line(const ToguzNative& game) {
    std::ostringstream out;
    out << "position";
    for (int i = 0; i < 18; ++i) out << ' ' << static_cast<int>(game.cells[i]);
    for (int side = 0; side < 2; ++side) out << ' ' << static_cast<int>(game.tuzdeks[side]);
    for (int side = 0; side < 2; ++side) out << ' ' << static_cast<int>(game.scores[side]);
    return out.str();
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    TT table;
    ZobristHash hasher;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string command;
        in >> command;
        if (command == "quit") break;
        if (command == "new") {
            table.clear();
            std::cout << "ok" << std::endl;
            continue;
        }
        int first = 0, player = 0;
        ToguzNative game;
        if ((command != "go" && command != "apply") || !(in >> first >> player) ||
            !read_position(in, game)) {
            std::cout << "error " << line << std::endl;
            continue;
        }
        if (command == "apply") {
            game.move(static_cast<u_int8_t>(first));
            std::cout << position_line(game) << std::endl;
            continue;
        }
        const auto started = std::chrono::steady_clock::now();
        deadline = started + std::chrono::milliseconds(first);
        std::atomic<bool> stop(false);
        int best = NOMOVE, value = 0, depth_done = 0;
        for (int depth = 1; depth <= kMaxDepth; ++depth) {
            u_int8_t move = NOMOVE;
            const int found = search_depth(game, depth, LOSE, WIN, player != 0, move, table,
                                           hasher, stop);
            if (stop.load()) break;
            best = move;
            value = found;
            depth_done = depth;
        }
        if (best == NOMOVE) {  // not even depth 1 in the time: the first legal move
            std::array<u_int8_t, 9> moves{};
            int count = 0;
            game.get_legal_moves(player != 0, moves, count);
            best = count > 0 ? moves[0] : NOMOVE;
        }
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started);
        std::cout << "bestmove " << best << " depth " << depth_done << " score " << value
                  << " ms " << spent.count() << std::endl;
    }
    return 0;
}
