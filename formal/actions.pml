/*
 * Returns Desk: the pending action and its external effect, as a Promela model for spin.
 * docs/formal.md maps every transition below to the function that implements it, lists the
 * properties and how `npm run test:formal` checks them.
 *
 * One customer's actions on one order: the proposal (slot 0) and either its revision or, while
 * the first waits for staff, a second chat's proposal (slot 1).
 * One effect row: the refund of whichever of them executed (the order's business key lets only
 * one cancellation exist, so there is at most one refund per order). Two relays (RELAYS=3 for
 * three). A transaction of the code is one atomic step here; everything a process does outside
 * a transaction (a read before it, a provider call) is a step of its own, and other processes
 * may run in between.
 *
 * Build flags (cpp, through spin -D...):
 *   FORGETS        the provider forgets idempotency keys at any moment; its lookups answer
 *                  truthfully or fail. Without it: the provider keeps keys, and a live but slow
 *                  relay's lease may lapse (MAXLAPSE times) and be taken over.
 *   SLOW_RELAY     with FORGETS: a live relay's lease may lapse as well. Outside the protocol's
 *                  assumption (docs/formal.md); the check expects a counterexample.
 *   RELAYS=n       number of relays (2 or 3).
 *   EFFECT_ONLY    the action is proposed and confirmed at once; only the effect's life follows
 *                  (the three-relay runs: the action side is checked with two).
 *   BUG_*          planted bugs; each must make one property fail (scripts/formal.mjs).
 */

#ifndef RELAYS
#define RELAYS 2
#endif
#define MAXATT 3    /* EFFECTS_MAX_ATTEMPTS */
#define MAXCRASH 2  /* relay crashes in one run (bounded, or nothing need ever finish) */
#define MAXLAPSE 1  /* leases that lapse under a live relay */

/* Action statuses (pending_actions.status). */
#define NONE 0
#define PENDING 1
#define AWAITING 2
#define EXECUTED 3
#define CANCELLED 4
#define EXPIRED 5
#define SUPERSEDED 6
#define STALE 7
#define FAILED 8
#define REJECTED 9

/* Effect statuses (effects.status). */
#define E_NONE 0
#define E_PENDING 1
#define IN_FLIGHT 2
#define SUCCEEDED 3
#define E_FAILED 4
#define NEEDS_ATTENTION 5
#define RESOLVED 6

/* What a provider call answered, as the relay sees it. */
#define O_NONE 0
#define O_SUCC 1   /* send: succeeded */
#define O_DEF 2    /* send: definite refusal (a 4xx other than 409/429) */
#define O_INDET 3  /* send or lookup: unknown (timeout, dropped connection, 5xx, 409, 429) */
#define O_FOUND 4  /* lookup: the provider has the refund */
#define O_ABSENT 5 /* lookup: the provider has no such refund */

/* The action and its revision. */
byte act[2];
bit live[2];      /* its TTL (or the approval's) has not passed */
bit appr[2];      /* requiresApproval */
bit order_moved;  /* the order's version moved (staff marked it shipped) */
bit order_done;   /* the order's cancellation is recorded (business key) */

/* The effect row (the refund). */
byte eff;
byte eff_act;     /* the action it belongs to */
byte owner;       /* lease_owner: the relay's _pid, 0 for none */
byte attempts;
bit lasterr;      /* last_error_code is not null */
bit lapsed;       /* lease_until has passed */
bit holder_dead;  /* the relay holding the lease crashed (its lease will lapse) */

/* The provider. */
byte applied;     /* refunds it applied for this effect */
bit key_known;    /* it holds the effect's idempotency key (with its stored answer) */

/* Ghosts: what the properties talk about. */
byte exec[2];     /* times each action moved to executed */
bit killed[2];    /* it reached cancelled, expired, superseded, rejected, stale or failed */
byte crashes;
byte lapses;
byte retries;

#define WAITING(a) (act[a] == PENDING || act[a] == AWAITING)

/* claimPendingAction: status is `from` and the TTL has not passed. */
#ifdef BUG_CLAIM_NO_STATUS
#define CLAIMABLE(a, from) (act[a] != NONE && live[a])
#else
#define CLAIMABLE(a, from) (act[a] == from && live[a])
#endif

/* claimDueEffects: pending, or in flight under a lapsed lease. */
#ifdef BUG_NO_TAKEOVER
#define DUE (eff == E_PENDING)
#elif defined(BUG_CLAIM_LIVE_LEASE)
#define DUE (eff == E_PENDING || eff == IN_FLIGHT)
#else
#define DUE (eff == E_PENDING || (eff == IN_FLIGHT && lapsed))
#endif

/* decide(): an effect attempted before is looked up before anything is sent. */
#ifdef BUG_SKIP_LOOKUP
#define LOOKUP_FIRST false
#else
#define LOOKUP_FIRST (attempts > 1 || lasterr)
#endif

/* recordEffectOutcome: only the holder of the lease records. */
#define HOLDS(me) (eff == IN_FLIGHT && owner == me)

/*
 * The write inside runConfirm's transaction, once the claim succeeded: the tool's business key
 * first (an existing cancellation answers, createdNow false, no effect), then the
 * compare-and-set on the order's version (moved: stale), then the cancellation, its effect in
 * the outbox and executed. Or the transaction throws: rolled back, then failed.
 */
inline commit(a) {
  if
  :: order_done -> act[a] = EXECUTED; exec[a]++
  :: !order_done && order_moved -> act[a] = STALE; killed[a] = 1
  :: !order_done && !order_moved ->
     order_done = 1; act[a] = EXECUTED; exec[a]++;
     eff = E_PENDING; eff_act = a
  :: act[a] = FAILED; killed[a] = 1
  fi
}

/* The customer's confirm: above the approval threshold it waits for staff, with a new TTL. */
inline confirm(a) {
  atomic {
    CLAIMABLE(a, PENDING) ->
    if
    :: appr[a] && act[a] == PENDING -> act[a] = AWAITING; live[a] = 1
    :: else -> commit(a)
    fi
  }
}

inline end_action(a, to) {
  act[a] = to; killed[a] = 1
}

/* The customer in the chat: proposes, may revise, cancel, hand the chat over or start anew. */
active proctype customer() {
#ifdef EFFECT_ONLY
  /* The relays' own runs: proposed and confirmed at once, the effect's life is all that follows. */
  atomic { act[0] = EXECUTED; exec[0] = 1; order_done = 1; eff = E_PENDING; eff_act = 0 }
#else
  atomic {
    act[0] = PENDING; live[0] = 1;
    if :: appr[0] = 1 :: appr[0] = 0 fi;
#ifdef BUG_EFFECT_AT_PROPOSE
    eff = E_PENDING; eff_act = 0;
#endif
  }
end_customer:
  do
  :: act[0] == PENDING && act[1] == NONE ->
     /* reviseAction reads the row and runs plan() outside its transaction. */
     atomic {
       if
#ifdef BUG_REVISE_NO_CAS
       :: true ->
#else
       :: act[0] == PENDING && live[0] ->
#endif
          end_action(0, SUPERSEDED);
          act[1] = PENDING; live[1] = 1;
          if :: appr[1] = 1 :: appr[1] = 0 fi
       :: else -> skip
       fi
     }
  /* While the first waits for staff, a new chat asks again: the order is still processing and
     has no cancellation yet, so plan() allows a second proposal on it. */
  :: atomic {
       act[0] == AWAITING && act[1] == NONE && !order_done && !order_moved ->
       act[1] = PENDING; live[1] = 1;
       if :: appr[1] = 1 :: appr[1] = 0 fi
     }
  :: atomic { act[0] == PENDING && live[0] -> end_action(0, CANCELLED) }
  :: atomic { act[1] == PENDING && live[1] -> end_action(1, CANCELLED) }
  /* A handoff to a person, or a new chat: the chat's pending proposal is superseded. */
  :: atomic { act[0] == PENDING -> end_action(0, SUPERSEDED) }
  :: atomic { act[1] == PENDING -> end_action(1, SUPERSEDED) }
  od
#endif
}

/* The card's Confirm (another tab, the terminal): races everything the customer does. */
active proctype confirmer() {
end_confirmer:
  do
  :: confirm(0)
  :: confirm(1)
  od
}

/* Staff: approve, reject, mark the order shipped, retry or resolve an effect in the queue. */
active proctype staff() {
end_staff:
  do
  :: atomic { CLAIMABLE(0, AWAITING) -> commit(0) }
  :: atomic { CLAIMABLE(1, AWAITING) -> commit(1) }
#ifdef BUG_REJECT_NO_CAS
  :: atomic { act[0] != NONE && act[0] != REJECTED -> end_action(0, REJECTED) }
#else
  :: atomic { act[0] == AWAITING && live[0] -> end_action(0, REJECTED) }
#endif
  :: atomic { act[1] == AWAITING && live[1] -> end_action(1, REJECTED) }
  :: atomic { !order_moved && !order_done -> order_moved = 1 }
  :: atomic {
       (eff == E_FAILED || eff == NEEDS_ATTENTION) && retries < 1 ->
       retries++; eff = E_PENDING; attempts = 0;
#ifdef BUG_RETRY_CLEARS_ERROR
       lasterr = 0
#endif
     }
  :: atomic { (eff == E_FAILED || eff == NEEDS_ATTENTION) -> eff = RESOLVED }
  od
}

/* Time and the provider's housekeeping: TTLs pass, the sweep expires, leases lapse, keys go. */
active proctype clock() {
end_clock:
  do
  :: atomic { WAITING(0) && live[0] -> live[0] = 0 }
  :: atomic { WAITING(1) && live[1] -> live[1] = 0 }
  :: atomic { WAITING(0) && !live[0] -> end_action(0, EXPIRED) }
  :: atomic { WAITING(1) && !live[1] -> end_action(1, EXPIRED) }
#ifndef BUG_NO_LEASE_EXPIRY
  :: atomic { eff == IN_FLIGHT && !lapsed && holder_dead -> lapsed = 1 }
#endif
#if !defined(FORGETS) || defined(SLOW_RELAY)
  :: atomic { eff == IN_FLIGHT && !lapsed && !holder_dead && lapses < MAXLAPSE -> lapsed = 1; lapses++ }
#endif
#ifdef FORGETS
  :: atomic { key_known -> key_known = 0 }
#endif
  od
}

/* The relay dies here (SIGKILL, or its database write fails): the attempt is abandoned. */
inline crash_point() {
  if
  :: skip
  :: atomic {
       crashes < MAXCRASH -> crashes++;
       if :: HOLDS(_pid) -> holder_dead = 1 :: else -> skip fi;
       out = O_NONE
     };
     goto end_restart
  fi
}

/*
 * The provider receives one request with the effect's idempotency key. A key it holds gets the
 * stored answer (which may be lost on the way back); an unknown key is a new request: applied
 * (answered, or the answer lost), or not applied (a server error, a drop before it was read),
 * or refused for good.
 */
inline send() {
  atomic {
    if
    :: key_known -> if :: out = O_SUCC :: out = O_INDET fi
    :: !key_known ->
       if
       :: applied++; key_known = 1; out = O_SUCC
       :: applied++; key_known = 1; out = O_INDET
       :: out = O_INDET
       :: applied == 0 -> out = O_DEF
       fi
    fi
  }
}

active [RELAYS] proctype relay() {
  byte out = O_NONE;
end_restart:
  do
  :: atomic {
       DUE -> eff = IN_FLIGHT; owner = _pid; lapsed = 0; holder_dead = 0; attempts++
     };
     crash_point();
     if
     :: LOOKUP_FIRST ->
        /* The lookup answers truthfully, or fails. */
        atomic { if :: applied > 0 -> out = O_FOUND :: applied == 0 -> out = O_ABSENT :: out = O_INDET fi };
        crash_point();
        if
        :: out == O_ABSENT -> send()
        :: else -> skip
        fi
     :: else -> send()
     fi;
#ifdef BUG_SDK_RETRY
     /* A client library sending the request again by itself after a dropped connection. */
     if :: out == O_INDET -> send() :: else -> skip fi;
#endif
     crash_point();
     atomic {
       if
       :: HOLDS(_pid) ->
          owner = 0; lapsed = 0;
          if
          :: out == O_SUCC || out == O_FOUND -> eff = SUCCEEDED
          :: out == O_DEF -> eff = E_FAILED; lasterr = 1
          :: out == O_INDET ->
             lasterr = 1;
             if
             :: attempts >= MAXATT -> eff = NEEDS_ATTENTION
             :: eff = NEEDS_ATTENTION /* EFFECTS_MAX_AGE_SECONDS since the confirm (or retry) */
             :: attempts < MAXATT -> eff = E_PENDING
             fi
          fi
       :: else -> skip
       fi;
       out = O_NONE
     }
  od
}

/* The properties (spin -a, then pan -N <name>). */
ltl one_execution { [] (exec[0] <= 1 && exec[1] <= 1) }
ltl one_refund { [] (applied <= 1) }
ltl no_effect_without_decision {
  [] ((eff == E_NONE || act[eff_act] == EXECUTED) && (applied == 0 || eff != E_NONE))
}
ltl no_execution_after_end { [] (!(killed[0] && exec[0] > 0) && !(killed[1] && exec[1] > 0)) }
ltl leaves_in_flight { [] ((eff == IN_FLIGHT) -> <> (eff != IN_FLIGHT)) }
