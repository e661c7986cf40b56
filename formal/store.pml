/*
 * Returns Desk: a cancellation written at the connected store (the effect store.cancel_order at
 * Medusa), as a Promela model for spin. docs/formal.md maps every transition to the function that
 * implements it and says what each property means.
 *
 * The store has no idempotency keys. What it has: the order's updated_at (the plan recorded it,
 * expectedUpdatedAt), and the order's metadata, where the first write of ours puts our operation
 * id (the action's id) before the cancel. A lookup by operation id is a read of the order and of
 * who did what to it: cancelled, carrying our id, and its cancel's refunds made by the actor that
 * wrote our id (Medusa's created_by on the order change and on the refunds) is ours; a merchant's
 * cancel after our metadata write is not. The check of updated_at is a read followed by a write,
 * not a compare-and-set at the store: a merchant's edit can land between them (TRUE_CAS models a
 * store that had one).
 *
 * One effect row, two relays (RELAYS=3 for three), crashes at every step between two requests,
 * a merchant who edits the order (once) while all this runs. A transaction of the code, or one
 * HTTP request at the store, is one atomic step; other processes may run between two of them.
 *
 * Build flags (cpp, through spin -D...):
 *   RELAYS=n          number of relays (2 or 3).
 *   TRUE_CAS          the store applies "tag with our id and cancel" only while updated_at is
 *                     still the plan's, in one request. Not Medusa: what the strict property needs.
 *   SLOW_RELAY        a live relay's lease may lapse (it outlives it): outside the assumption the
 *                     lease stands for; the check expects a counterexample.
 *   MERCHANT_CANCELS  the merchant may also cancel the order at the store (as another actor:
 *                     Medusa's cancel refunds the captured payment as the actor who cancelled).
 *   UNCAPTURED        the order has no captured payment: a cancel refunds nothing, so nothing
 *                     tells whose it was and the lookup credits it to us (a known limit, with
 *                     MERCHANT_CANCELS the check expects a counterexample).
 *   BUG_*             planted bugs; each must make one property fail (scripts/formal.mjs).
 */

#ifndef RELAYS
#define RELAYS 2
#endif
#define MAXATT 3    /* EFFECTS_MAX_ATTEMPTS */
#define MAXCRASH 2  /* relay crashes in one run */
#define MAXLAPSE 1  /* leases that lapse under a live relay (SLOW_RELAY) */

/* Effect statuses (effects.status). */
#define E_PENDING 1
#define IN_FLIGHT 2
#define SUCCEEDED 3
#define E_FAILED 4
#define NEEDS_ATTENTION 5
#define RESOLVED 6

/* What a request answered, as the relay sees it. */
#define O_NONE 0
#define O_SUCC 1   /* cancel(): succeeded */
#define O_DEF 2    /* definite: a refusal for good (order_changed_at_store, already_cancelled_at_store, 4xx) */
#define O_INDET 3  /* unknown: timeout, dropped connection, 5xx, 409, 429 */
#define O_FOUND 4  /* findCancel(): cancelled, our id in the metadata, the cancel's refunds by our actor */
#define O_ABSENT 5 /* findCancel(): not cancelled */

/* The effect row. */
byte eff = E_PENDING;
byte owner;       /* lease_owner: the relay's _pid, 0 for none */
byte attempts;
bit lasterr;      /* last_error_code is not null */
bit lapsed;       /* lease_until has passed */
bit holder_dead;  /* the relay holding the lease crashed */
byte retries;     /* staff's retries */

/* The order at the store. */
bit cancelled;
bit md_ours;      /* metadata[returns_desk_cancel_operation_id] is our operation id */
bit edited;       /* the merchant changed it since the plan (its updated_at moved) */
bit refund_ours;  /* the cancel's refunds were made by the actor that wrote our id (created_by) */

/*
 * cancelState(): what the store shows about whose cancel it was, for a cancelled order. Our id in
 * the metadata, and the cancel's refunds made by the actor of our metadata write; an order with no
 * captured payment has no refund since our write, and is credited to us.
 */
#ifdef UNCAPTURED
#define NO_REFUND 1
#else
#define NO_REFUND 0
#endif
#ifdef BUG_LOOKUP_IGNORES_ACTOR
#define OURS_AT_STORE (md_ours)  /* the old check: our id in the metadata is enough */
#else
#define OURS_AT_STORE (md_ours && (refund_ours || NO_REFUND))
#endif

/* Ghosts: what the properties talk about. */
bit by_us;        /* the store applied our cancel */
byte writes;      /* cancel requests of ours the store received (applied or refused) */
bit auth_changed; /* a write of ours followed a read that showed the order changed */
bit wrote_changed;/* our cancel reached an order the merchant had changed (when it landed) */
byte crashes;
byte lapses;
byte steals;      /* claims of a live lease (only the planted bug makes them; bounded) */

/* claimDueEffects: pending, or in flight under a lapsed lease. */
#ifdef BUG_CLAIM_LIVE_LEASE
#define DUE (eff == E_PENDING || (eff == IN_FLIGHT && (lapsed || steals < 1)))
#else
#define DUE (eff == E_PENDING || (eff == IN_FLIGHT && lapsed))
#endif

/* decide(): an effect attempted before is looked up before anything is sent. */
#ifdef BUG_SKIP_LOOKUP
#define LOOKUP_FIRST false
#else
#define LOOKUP_FIRST (attempts > 1 || lasterr)
#endif

#define HOLDS(me) (eff == IN_FLIGHT && owner == me)

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
 * A write of ours lands at the store: the ghosts that the order properties read. What authorised
 * it is this attempt's check of updated_at, unless our id was already in the metadata (then an
 * earlier attempt's check authorised the metadata write, and this attempt checked nothing).
 */
inline landed() {
  if :: !r_md && r_ed -> auth_changed = 1 :: else -> skip fi
}

/*
 * POST /admin/orders/{id}/cancel: a cancelled order is refused (Medusa's cancel workflow throws
 * on a cancelled order), otherwise cancelled. The answer may be lost; the request may be lost
 * before the store read it.
 */
inline cancel_post() {
  atomic {
    if
    :: cancelled -> writes++; out = O_DEF
    :: !cancelled ->
       writes++; cancelled = 1; by_us = 1; refund_ours = 1; landed();
       if :: edited -> wrote_changed = 1 :: else -> skip fi;
#ifdef BUG_CANCEL_IGNORES_ANSWER
       out = O_SUCC
#else
       if :: out = O_SUCC :: out = O_INDET fi
#endif
    :: out = O_INDET
#ifdef BUG_CANCEL_IGNORES_ANSWER
       ; out = O_SUCC  /* a lost request taken for a success */
#endif
    fi
  }
}

/*
 * medusaStore().cancel(): read the order; already cancelled (ours by cancelState: succeeded,
 * not ours: definite); our id not yet in its metadata: its updated_at must be the plan's, then the
 * metadata write; then the cancel.
 */
inline cancel_op() {
  atomic {
    if
    :: r_c = cancelled; r_md = md_ours; r_ours = OURS_AT_STORE; r_ed = edited; out = O_NONE
    :: out = O_INDET  /* the read got no answer */
    fi
  };
  if
  :: out == O_INDET -> skip
  :: else ->
#ifdef BUG_BLIND_CANCEL
     /* cancel() without its own reading of the state: straight to the check and the writes. */
     r_c = 0;
#endif
     if
     :: r_c && r_ours -> out = O_SUCC
     :: r_c && !r_ours -> out = O_DEF
     :: !r_c ->
#ifdef TRUE_CAS
        /* One conditional request: tag and cancel only while updated_at is the plan's. */
        crash_point();
        atomic {
          if
          :: cancelled -> writes++; out = O_DEF
          :: !cancelled && edited && !md_ours -> out = O_DEF
          :: !cancelled && (!edited || md_ours) ->
             writes++; md_ours = 1; cancelled = 1; by_us = 1; refund_ours = 1; landed();
             if :: edited -> wrote_changed = 1 :: else -> skip fi;
             if :: out = O_SUCC :: out = O_INDET fi
          :: out = O_INDET
          fi
        }
#else
        if
#ifdef BUG_NO_UPDATED_AT_CHECK
        :: false -> skip
#else
        :: !r_md && r_ed -> out = O_DEF  /* order_changed_at_store */
#endif
        :: else ->
           if
           :: !r_md ->
              crash_point();
              /* POST /admin/orders/{id} with our id in the metadata (it moves updated_at);
                 Medusa's update workflow refuses a cancelled order (a 400: definite). */
              atomic {
                if
                :: cancelled -> out = O_DEF
                :: !cancelled -> md_ours = 1; landed(); out = O_NONE
                :: !cancelled -> md_ours = 1; landed(); out = O_INDET
                :: out = O_INDET
                fi
              }
           :: else -> skip
           fi;
           if
           :: out == O_INDET || out == O_DEF -> skip
           :: else -> crash_point(); cancel_post()
           fi
        fi
#endif
     fi
  fi
}

active [RELAYS] proctype relay() {
  byte out = O_NONE;
  bit r_c, r_md, r_ours, r_ed;  /* what the relay's read of the order showed */
end_restart:
  do
  :: atomic {
       DUE ->
       if :: eff == IN_FLIGHT && !lapsed -> steals++ :: else -> skip fi;
       eff = IN_FLIGHT; owner = _pid; lapsed = 0; holder_dead = 0; attempts++;
       r_c = 0; r_md = 0; r_ours = 0; r_ed = 0
     };
     crash_point();
     if
     :: LOOKUP_FIRST ->
        /* medusaStore().findCancel(): a read of the order (and, cancelled with our id, of its
           changes and refunds: who wrote our id, who refunded), or no answer. */
        atomic {
          if
          :: cancelled && OURS_AT_STORE -> out = O_FOUND
          :: cancelled && !OURS_AT_STORE -> out = O_DEF
          :: !cancelled -> out = O_ABSENT
          :: out = O_INDET
          fi
        };
        crash_point();
        if
        :: out == O_ABSENT -> cancel_op()
        :: else -> skip
        fi
     :: else -> cancel_op()
     fi;
     crash_point();
     /* recordEffectOutcome, only while holding the lease. */
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

/*
 * The merchant in Medusa's admin: edits the order (once) while it is open; may cancel it, as an
 * actor of its own: the cancel's refunds are the merchant's.
 */
active proctype merchant() {
end_merchant:
  do
  :: atomic { !cancelled && !edited -> edited = 1 }
#ifdef MERCHANT_CANCELS
  :: atomic { !cancelled -> cancelled = 1; refund_ours = 0 }
#endif
  od
}

/* Time (leases lapse) and staff (retry or resolve an effect in the queue). */
active proctype clock() {
end_clock:
  do
#ifndef BUG_NO_LEASE_EXPIRY
  :: atomic { eff == IN_FLIGHT && !lapsed && holder_dead -> lapsed = 1 }
#endif
#ifdef SLOW_RELAY
  :: atomic { eff == IN_FLIGHT && !lapsed && !holder_dead && lapses < MAXLAPSE -> lapsed = 1; lapses++ }
#endif
  :: atomic { (eff == E_FAILED || eff == NEEDS_ATTENTION) && retries < 1 -> retries++; eff = E_PENDING; attempts = 0 }
  :: atomic { (eff == E_FAILED || eff == NEEDS_ATTENTION) -> eff = RESOLVED }
  od
}

/* The properties (spin -a, then pan -N <name>). */
ltl one_write { [] (writes <= 1) }
ltl success_is_true { [] (eff == SUCCEEDED -> by_us) }
ltl no_write_on_changed_order { [] !auth_changed }
ltl no_write_on_changed_order_strict { [] !wrote_changed }
ltl leaves_in_flight { [] ((eff == IN_FLIGHT) -> <> (eff != IN_FLIGHT)) }
