//! Building a plan. Dependencies can only name nodes that already exist, so a plan is acyclic
//! by construction; grouping by stream edges is checked in [`Plan::groups`].

use rea_core::Failure;

use crate::run::StageCx;

/// The stage a node belongs to, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StageKind {
    Traverse,
    Hash,
    Parse,
    Graph,
    Seal,
    Validate,
}

impl StageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StageKind::Traverse => "traverse",
            StageKind::Hash => "hash",
            StageKind::Parse => "parse",
            StageKind::Graph => "graph",
            StageKind::Seal => "seal",
            StageKind::Validate => "validate",
        }
    }
}

/// Where a node's body runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Inside the rayon pool: the body may use `par_iter` and `par_bridge`.
    Pool,
    /// On its own scoped OS thread: for producers that block on I/O or on a full channel.
    Dedicated,
}

/// An edge into a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dep {
    /// Start once the named node has finished.
    After(NodeId),
    /// Run at the same time as the named node, which feeds this one through a channel.
    Stream(NodeId),
    /// Run at the same time as the named node, with no data between them.
    Alongside(NodeId),
}

/// A node's index in its plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub(crate) usize);

pub(crate) type Body = Box<dyn FnOnce(&StageCx<'_>) -> Result<(), Failure> + Send>;

pub(crate) struct Node {
    pub(crate) kind: StageKind,
    pub(crate) placement: Placement,
    pub(crate) deps: Vec<Dep>,
    pub(crate) body: Body,
}

/// A plan that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("node {0} depends on a node that does not exist")]
    UnknownDep(usize),
    #[error("stream producer {0} must be placed on a dedicated thread")]
    PooledStreamProducer(usize),
    #[error("node {0} waits for a node in its own stream group")]
    AfterInsideGroup(usize),
    #[error("stream groups depend on each other in a cycle")]
    GroupCycle,
}

/// A DAG of stage nodes.
#[derive(Default)]
pub struct Plan {
    pub(crate) nodes: Vec<Node>,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<_> = self
            .nodes
            .iter()
            .map(|n| (n.kind, n.placement, &n.deps))
            .collect();
        f.debug_struct("Plan").field("nodes", &kinds).finish()
    }
}

impl Plan {
    pub fn new() -> Plan {
        Plan::default()
    }

    /// Adds a node. Every dependency must name a node added before.
    pub fn add(
        &mut self,
        kind: StageKind,
        placement: Placement,
        deps: &[Dep],
        body: impl FnOnce(&StageCx<'_>) -> Result<(), Failure> + Send + 'static,
    ) -> Result<NodeId, PlanError> {
        let id = self.nodes.len();
        for dep in deps {
            let (Dep::After(NodeId(from))
            | Dep::Stream(NodeId(from))
            | Dep::Alongside(NodeId(from))) = *dep;
            if from >= id {
                return Err(PlanError::UnknownDep(id));
            }
            if let Dep::Stream(_) = dep
                && self.nodes[from].placement != Placement::Dedicated
            {
                return Err(PlanError::PooledStreamProducer(from));
            }
        }
        self.nodes.push(Node {
            kind,
            placement,
            deps: deps.to_vec(),
            body: Box::new(body),
        });
        Ok(NodeId(id))
    }

    /// The stage kinds in the plan, in node order.
    pub fn kinds(&self) -> Vec<StageKind> {
        self.nodes.iter().map(|n| n.kind).collect()
    }

    /// Stream groups in the order they run: each group is a sorted list of node indices.
    pub(crate) fn groups(&self) -> Result<Vec<Vec<usize>>, PlanError> {
        let n = self.nodes.len();
        // Union-find over stream and alongside edges.
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for (idx, node) in self.nodes.iter().enumerate() {
            for dep in &node.deps {
                if let Dep::Stream(NodeId(from)) | Dep::Alongside(NodeId(from)) = *dep {
                    let (a, b) = (find(&mut parent, idx), find(&mut parent, from));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let roots: Vec<usize> = (0..n).map(|x| find(&mut parent, x)).collect();
        let mut group_ids: Vec<usize> = roots.clone();
        group_ids.sort_unstable();
        group_ids.dedup();
        let group_of = |node: usize| group_ids.binary_search(&roots[node]).unwrap_or(0);
        let n_groups = group_ids.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n_groups];
        for node in 0..n {
            members[group_of(node)].push(node);
        }
        // Group-level After edges, then Kahn's algorithm with the lowest group first.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n_groups];
        for (idx, node) in self.nodes.iter().enumerate() {
            for dep in &node.deps {
                if let Dep::After(NodeId(from)) = *dep {
                    let (g_from, g_to) = (group_of(from), group_of(idx));
                    if g_from == g_to {
                        return Err(PlanError::AfterInsideGroup(idx));
                    }
                    preds[g_to].push(g_from);
                }
            }
        }
        let mut done = vec![false; n_groups];
        let mut order = Vec::with_capacity(n_groups);
        while order.len() < n_groups {
            let next = (0..n_groups).find(|&g| !done[g] && preds[g].iter().all(|&p| done[p]));
            let Some(g) = next else {
                return Err(PlanError::GroupCycle);
            };
            done[g] = true;
            order.push(std::mem::take(&mut members[g]));
        }
        Ok(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noop(_cx: &StageCx<'_>) -> Result<(), Failure> {
        Ok(())
    }

    #[test]
    fn deps_must_exist_and_stream_producers_must_be_dedicated() {
        let mut plan = Plan::new();
        let pooled = plan
            .add(StageKind::Traverse, Placement::Pool, &[], noop)
            .unwrap();
        assert_eq!(
            plan.add(
                StageKind::Hash,
                Placement::Pool,
                &[Dep::Stream(pooled)],
                noop
            )
            .unwrap_err(),
            PlanError::PooledStreamProducer(0)
        );
        assert_eq!(
            plan.add(
                StageKind::Hash,
                Placement::Pool,
                &[Dep::After(NodeId(7))],
                noop
            )
            .unwrap_err(),
            PlanError::UnknownDep(1)
        );
    }

    #[test]
    fn stream_groups_run_in_dependency_order() {
        let mut plan = Plan::new();
        let walk = plan
            .add(StageKind::Traverse, Placement::Dedicated, &[], noop)
            .unwrap();
        let hash = plan
            .add(StageKind::Hash, Placement::Pool, &[Dep::Stream(walk)], noop)
            .unwrap();
        let graph = plan
            .add(StageKind::Graph, Placement::Pool, &[Dep::After(hash)], noop)
            .unwrap();
        plan.add(StageKind::Seal, Placement::Pool, &[Dep::After(graph)], noop)
            .unwrap();
        assert_eq!(plan.groups().unwrap(), vec![vec![0, 1], vec![2], vec![3]]);
    }

    #[test]
    fn alongside_nodes_share_a_group() {
        let mut plan = Plan::new();
        let walk = plan
            .add(StageKind::Traverse, Placement::Dedicated, &[], noop)
            .unwrap();
        let hash = plan
            .add(StageKind::Hash, Placement::Pool, &[Dep::Stream(walk)], noop)
            .unwrap();
        let root = plan
            .add(
                StageKind::Hash,
                Placement::Pool,
                &[Dep::Alongside(walk)],
                noop,
            )
            .unwrap();
        plan.add(
            StageKind::Graph,
            Placement::Pool,
            &[Dep::After(hash), Dep::After(root)],
            noop,
        )
        .unwrap();
        assert_eq!(plan.groups().unwrap(), vec![vec![0, 1, 2], vec![3]]);
    }

    #[test]
    fn waiting_inside_a_stream_group_is_rejected() {
        let mut plan = Plan::new();
        let walk = plan
            .add(StageKind::Traverse, Placement::Dedicated, &[], noop)
            .unwrap();
        plan.add(
            StageKind::Hash,
            Placement::Pool,
            &[Dep::Stream(walk), Dep::After(walk)],
            noop,
        )
        .unwrap();
        assert_eq!(plan.groups().unwrap_err(), PlanError::AfterInsideGroup(1));
    }

    #[test]
    fn cycles_between_groups_are_rejected() {
        let mut plan = Plan::new();
        let a = plan
            .add(StageKind::Traverse, Placement::Dedicated, &[], noop)
            .unwrap();
        let b = plan
            .add(
                StageKind::Hash,
                Placement::Dedicated,
                &[Dep::After(a)],
                noop,
            )
            .unwrap();
        // c streams from a (same group as a) but waits for b, which waits for a.
        plan.add(
            StageKind::Graph,
            Placement::Pool,
            &[Dep::Stream(a), Dep::After(b)],
            noop,
        )
        .unwrap();
        assert_eq!(plan.groups().unwrap_err(), PlanError::GroupCycle);
    }
}
