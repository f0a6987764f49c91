// Package partition proposes the partitions a delegate (backend) runs: sets
// of supported nodes, each of which becomes one lowered module called from
// the parent program. Propose works on an abstract DAG (nodes in
// topological order, predecessor lists) and a Request; ProposeGraph and
// ProposeProgram state an ir graph and a backend profile as that problem
// (GraphRequest) and return a Plan: the partitions, what crosses each cut
// with its kind (Boundary), a verdict for every node, the groups, and the
// plans of graphs nested in nodes left to the parent. Package lower lowers
// a Plan and package report describes one. A full_graph backend that
// cannot take a whole graph is a FullGraphError.
//
// # The problem
//
// A partitioning is valid when every partition holds supported nodes only,
// no node is in two partitions, every group (Request.Groups) is whole in one
// partition or not delegated at all, every partition has at least
// MinCompute compute nodes, and contracting each partition to one vertex
// leaves the graph acyclic: no path leaves a partition and comes back. Among
// valid partitionings Propose wants the most delegated nodes, then the fewest
// partitions. Partitions need not be connected: independent pieces share a
// partition (torch.fx calls this horizontal fusion).
//
// Below, a barrier is a node that will not be delegated (unsupported, in a
// refused group, or dropped); the others are delegable.
//
// # Levels
//
// Propose gives every node a level and makes each class of delegable nodes
// with equal level one partition. The levels obey, for every edge u → v:
//
//	level(v) ≥ level(u)      and, when u is a barrier and v delegable,
//	level(v) ≥ level(u) + 1.
//
// Any levels that obey this give a valid partitioning: along a path levels
// never fall, and they rise after every barrier, so a path that leaves a
// level class either climbs past a barrier or reaches a higher class, and
// cannot return. Conversely every valid partitioning arises this way (number
// the vertices of its acyclic contracted graph topologically), so nothing is
// lost by searching in level assignments.
//
// The earliest levels (asap: a barrier at the highest level of its
// predecessors, a delegable node at least 1 and above every barrier
// predecessor) come from one topological sweep. They are optimal when every
// supported node can be delegated (no groups, nothing below MinCompute): a
// node at level k ends a path that passes delegable nodes at every level
// 1..k with a barrier between consecutive ones, and those k nodes must lie
// in k different partitions. The same path shows that no two of the level
// classes can merge, so horizontal fusion is complete. This case (the
// synthetic torch.fx benchmarks are in it) takes O(N + E) time and a handful
// of allocations.
//
// # Groups
//
// A group must sit at one level. Overlapping groups are merged (union-find),
// and a merged group is refused, its nodes becoming barriers, when
//   - a member is unsupported (GroupUnsupported);
//   - a path between two members passes a barrier (GroupCrossing; found by a
//     sweep over the span between the first and last member);
//   - it forms, with other groups, a cycle through a barrier once each group
//     is contracted (GroupConflict; the contracted graph's strongly connected
//     components are found with Tarjan's algorithm, each component takes one
//     level, and a component containing a barrier-to-delegable edge cannot;
//     of its groups, the one whose first node comes last is refused).
//
// Refusals create barriers, so the checks repeat until none applies; each
// round is O(N + E), and there are at most as many rounds as groups (one or
// two in practice). Supported nodes on a path between members join the
// group's level, and so its partition. Kept groups are levelled by the
// longest path over the components, which is again optimal in the number of
// partitions.
//
// # MinCompute
//
// Views and scalar ops do not count towards MinCompute (Request.Compute): a
// delegate call that only reshapes costs more than it saves. Levels with too
// few compute nodes (small levels) are where delegated nodes get lost, and
// choosing which to keep is a covering problem with no known fast exact
// algorithm, so Propose runs a local search (compact):
//
//  1. Sweeps move nodes between levels, keeping the constraints above: a
//     backward sweep lifts nodes (a node may rise to just below its lowest
//     successor, or below the lowest delegable node reached through
//     barriers), a forward sweep lowers them. A node leaves a small level for
//     a big one; a compute node leaves a small level, or a big level with
//     compute to spare, to complete a level one compute node short. Every
//     move grows the number of nodes in big levels, so the sweeps end;
//     nearest-level queries use a 64-ary bit tree (levelSet).
//  2. Small levels are dropped (TooSmall). Dropping whole level classes keeps
//     the rest valid.
//  3. The remaining partitions are contracted and levelled afresh
//     (canonicalize), which merges partitions that no longer need to be apart
//     and restores the "no two can merge" property. The old levels already
//     order the contracted graph, so this is a bucket sort and one pass.
//  4. Dropped nodes that fit an existing partition are taken back (absorb).
//     After step 3 the level test is exact: node x fits partition P exactly
//     when P's level lies between the lowest and highest level x may take.
//     Steps 3 and 4 repeat while nodes are taken back.
//
// Where the search starts matters, so it runs from the earliest levels, the
// latest (the mirror image of asap), the middle, and on small graphs up to
// eight seeded random levels in between, and keeps the best outcome. With
// groups only the two extremes are tried, as starts in between would split
// groups. On the fixtures it
// delegates at least as many nodes as torch.fx's partitioner whenever that
// is possible under the compute rule, and within a few nodes of a provable
// upper bound otherwise (fixtures_test.go). Group members
// do not move in steps 1 and 4, and moves are single nodes: a move that needs
// a chain of nodes to shift together is not found.
//
// # Cost
//
// Without groups and small levels: one validation pass, one sweep, one pass
// to emit the result: O(N + E), about 25 ns per node (a million nodes in
// under 30 ms on one core). Groups add O(N + E) per refusal round.
// MinCompute adds, per start, a bounded number of sweeps (16 at most, two or
// three in practice) of O((N + E) log64 L) for L levels, and bounded
// canonicalize/absorb rounds of O(N + E); there are 3 + min(8, 100000/N)
// starts, so at most 11 on small graphs and 3 on large ones. Memory is a few
// int32 per node and per edge.
//
// # Determinism
//
// Every step is a sweep in node order or a function of the graph (longest
// paths, components), ties are broken by node ids, and no map is iterated:
// the same DAG and request give the same result, whatever order
// predecessors, groups or group members are listed in.
//
// # Checking
//
// Check validates any partitioning against the same rules, written apart
// from Propose and as plainly as possible (contract, then depth-first search
// for a cycle). Tests run it on every proposal.
package partition
