/*
 * The stock reservation of exchange_items' confirm (lib/tools/exchange-items, the catalogue's
 * reserveStock in db/queries/catalogue.ts), checked with spin: docs/formal.md.
 *
 * Several customers confirm exchanges for the same size at once; the stock holds the last unit.
 * Each confirm is one database transaction (writeEffectOnce's savepoint) that inserts the
 * exchange row and then reserves: it reads the variant's committed stock and version, and runs
 * UPDATE stock = stock - q, version = version + 1 WHERE version = <read> AND stock >= q. An
 * UPDATE takes the row's lock until its transaction ends (PostgreSQL; SQLite's BEGIN IMMEDIATE
 * is stricter still: one writer at a time), and the others read the last committed values
 * meanwhile. A WHERE that matches no row is read again, at most five times. Too few units: the
 * transaction is rolled back (the exchange row with it) and the customer hears it sold out. A
 * transaction may also end in a rollback of its own (a crash, an error) after it reserved.
 * Staff may record a delivery of one more unit at any moment, which moves the version.
 *
 * Left out: the order's own compare-and-set (the action models' subject), and the effects.
 */

#ifndef CONFIRMERS
#define CONFIRMERS 3
#endif
#define INITIAL 1
#define QTY 1
#define ATTEMPTS 5

/* The variant's row as committed. */
short stock = INITIAL;
byte version = 0;
/* The row lock: 0 free, else the holder's number; its uncommitted values. */
byte lock = 0;
short pending_stock;
byte pending_version;

/* Units delivered by staff, units taken by committed exchanges, and committed exchange rows
   that took no unit (a customer told "sold out" whose exchange was stored anyway). */
byte restocked = 0;
byte taken = 0;
byte rows_without_units = 0;
byte finished = 0;

proctype confirmer(byte me) {
  short seen_stock;
  byte seen_version;
  byte attempt = 0;
  bool reserved = false;
  do
  :: attempt < ATTEMPTS ->
     /* reserve(): the committed row, whoever holds its lock */
     atomic { seen_stock = stock; seen_version = version };
#ifndef BUG_NO_STOCK_CHECK
     if
     :: seen_stock < QTY -> break
     :: else -> skip
     fi;
#endif
     /* The UPDATE: waits for the row's lock, then its WHERE is evaluated on the newest row. */
     atomic {
       lock == 0 ->
#if defined(BUG_NO_CAS)
       /* stock = <what was read> - q: a lost update */
       lock = me; pending_stock = seen_stock - QTY; pending_version = version + 1; reserved = true
#elif defined(BUG_NO_STOCK_CHECK)
       if
       :: version == seen_version ->
          lock = me; pending_stock = stock - QTY; pending_version = version + 1; reserved = true
       :: else -> attempt++
       fi
#else
       if
       :: version == seen_version && stock >= QTY ->
          lock = me; pending_stock = stock - QTY; pending_version = version + 1; reserved = true
       :: else -> attempt++
       fi
#endif
     };
     if
     :: reserved -> break
     :: else -> skip
     fi
  :: else -> break
  od;
  if
  :: reserved ->
     if
     :: atomic {
          /* COMMIT */
          stock = pending_stock; version = pending_version;
          taken = taken + QTY;
          lock = 0; finished++
        }
     :: atomic {
          /* ROLLBACK after the reservation: the units go back, and the exchange row with
             them, unless it was committed on its own before */
#ifdef BUG_RESERVE_AFTER_COMMIT
          rows_without_units++;
#endif
#ifndef BUG_LOCK_KEPT
          lock = 0;
#endif
          finished++
        }
     fi
  :: else ->
     /* Sold out: the savepoint takes the exchange row back, and nothing else was written. */
     atomic {
#ifdef BUG_RESERVE_AFTER_COMMIT
       /* the row was committed in a transaction of its own before the stock was reserved */
       rows_without_units++;
#endif
       finished++
     }
  fi
}

proctype staff() {
  /* A delivery of one unit arrives (setStock): the same row lock, the version moves. */
  atomic { lock == 0 -> stock = stock + 1; version = version + 1; restocked = 1 }
}

init {
  atomic {
    byte i = 1;
    do
    :: i <= CONFIRMERS -> run confirmer(i); i++
    :: else -> break
    od;
#ifdef RESTOCK
    run staff();
#endif
  }
}

/* The committed stock never falls below zero. */
ltl stock_never_negative { [] (stock >= 0) }
/* Every unit is either on the shelf or in a committed exchange: none sold twice, none lost. */
ltl units_accounted { [] (stock + taken == INITIAL + restocked) }
/* A customer told that the size sold out has no exchange stored. */
ltl sold_out_stores_nothing { [] (rows_without_units == 0) }
/* Every confirm ends: none waits for the row's lock forever. */
ltl every_confirm_ends { <> (finished == CONFIRMERS) }
