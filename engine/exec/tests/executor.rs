//! The executor's contract: order, streaming, cancellation checks, failure choice, panics.

use std::sync::{Arc, Mutex};

use rea_core::{CancelReason, CancelToken, Failure, FailureReason, ProgressReporter};
use rea_exec::{Dep, Executor, Placement, Plan, StageKind};

fn run(plan: Plan, threads: usize, cancel: &CancelToken) -> Result<rea_exec::RunReport, Failure> {
    Executor::new(threads)
        .unwrap()
        .run(plan, cancel, &ProgressReporter::silent())
}

/// Traverse streams 1..=n to hash, which sums them; graph reads the sum after hash finished.
fn streaming_plan(n: u64, log: Arc<Mutex<Vec<&'static str>>>, sum: Arc<Mutex<u64>>) -> Plan {
    let (tx, rx) = crossbeam_channel::bounded::<u64>(4);
    let mut plan = Plan::new();
    let walk = plan
        .add(StageKind::Traverse, Placement::Dedicated, &[], move |cx| {
            for i in 1..=n {
                cx.check()?;
                if tx.send(i).is_err() {
                    return Err(cx.disconnected());
                }
            }
            Ok(())
        })
        .unwrap();
    let sum_in = sum.clone();
    let hash = plan
        .add(
            StageKind::Hash,
            Placement::Pool,
            &[Dep::Stream(walk)],
            move |cx| {
                use rayon::prelude::*;
                let total: u64 = rx.into_iter().par_bridge().sum();
                cx.check()?;
                *sum_in.lock().unwrap() = total;
                Ok(())
            },
        )
        .unwrap();
    plan.add(
        StageKind::Graph,
        Placement::Pool,
        &[Dep::After(hash)],
        move |_cx| {
            log.lock().unwrap().push("graph");
            assert!(*sum.lock().unwrap() > 0);
            Ok(())
        },
    )
    .unwrap();
    plan
}

#[test]
fn streams_with_one_thread_and_with_two() {
    for threads in [1, 2] {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sum = Arc::new(Mutex::new(0));
        let report = run(
            streaming_plan(1000, log.clone(), sum.clone()),
            threads,
            &CancelToken::new(),
        )
        .unwrap();
        assert_eq!(*sum.lock().unwrap(), 500_500);
        assert_eq!(*log.lock().unwrap(), vec!["graph"]);
        let kinds: Vec<_> = report.stages.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            vec![StageKind::Traverse, StageKind::Hash, StageKind::Graph]
        );
    }
}

#[test]
fn cancelling_at_every_check_point_reports_cancelled() {
    let counter = CancelToken::counting();
    let log = Arc::new(Mutex::new(Vec::new()));
    run(
        streaming_plan(50, log, Arc::new(Mutex::new(0))),
        2,
        &counter,
    )
    .unwrap();
    let checks = counter.checks_made();
    assert!(checks > 50, "made {checks} checks");
    for n in 0..checks {
        let token = CancelToken::trip_after(n);
        let log = Arc::new(Mutex::new(Vec::new()));
        let failure = run(
            streaming_plan(50, log.clone(), Arc::new(Mutex::new(0))),
            2,
            &token,
        )
        .expect_err("a tripped token must fail the run");
        assert_eq!(failure.reason, FailureReason::Cancelled, "n = {n}");
        assert!(log.lock().unwrap().is_empty() || n + 2 >= checks, "n = {n}");
    }
}

#[test]
fn timeout_is_reported_as_timeout() {
    let token = CancelToken::new();
    token.cancel(CancelReason::Timeout);
    let failure = run(
        streaming_plan(5, Default::default(), Default::default()),
        1,
        &token,
    )
    .unwrap_err();
    assert_eq!(failure.reason, FailureReason::Timeout);
}

#[test]
fn a_consumer_failure_wins_over_the_producer_that_lost_it() {
    let (tx, rx) = crossbeam_channel::bounded::<u64>(1);
    let mut plan = Plan::new();
    let walk = plan
        .add(StageKind::Traverse, Placement::Dedicated, &[], move |cx| {
            for i in 0.. {
                if tx.send(i).is_err() {
                    return Err(cx.disconnected());
                }
            }
            Ok(())
        })
        .unwrap();
    plan.add(
        StageKind::Hash,
        Placement::Pool,
        &[Dep::Stream(walk)],
        move |_cx| {
            let first = rx.recv().unwrap();
            drop(rx);
            Err(Failure::new(
                FailureReason::Format,
                format!("bad entry {first}"),
            ))
        },
    )
    .unwrap();
    let failure = run(plan, 1, &CancelToken::new()).unwrap_err();
    assert_eq!(failure.reason, FailureReason::Format);
    assert_eq!(failure.message, "bad entry 0");
}

#[test]
fn a_panicking_stage_becomes_an_internal_failure() {
    let mut plan = Plan::new();
    plan.add(StageKind::Parse, Placement::Pool, &[], |_cx| panic!("boom"))
        .unwrap();
    let failure = run(plan, 2, &CancelToken::new()).unwrap_err();
    assert_eq!(failure.reason, FailureReason::Internal);
    assert_eq!(failure.message, "parse stage panicked");
}

#[test]
fn later_groups_do_not_start_after_a_failure() {
    let ran = Arc::new(Mutex::new(false));
    let mut plan = Plan::new();
    let first = plan
        .add(StageKind::Hash, Placement::Pool, &[], |_cx| {
            Err(Failure::new(FailureReason::Io, "read failed"))
        })
        .unwrap();
    let ran_in = ran.clone();
    plan.add(
        StageKind::Seal,
        Placement::Pool,
        &[Dep::After(first)],
        move |_cx| {
            *ran_in.lock().unwrap() = true;
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(
        run(plan, 2, &CancelToken::new()).unwrap_err().reason,
        FailureReason::Io
    );
    assert!(!*ran.lock().unwrap());
}
