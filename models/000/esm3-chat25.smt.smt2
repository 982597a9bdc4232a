; commsched exact model (SMT-LIB2)
; bufferless start times (virtual schedules), 1 messages, horizon T = 1
; 1 variables (1 boolean), 4 constraints
(set-logic QF_LIA)
(declare-const y_M0_s1 Bool)
(assert (! (= (ite y_M0_s1 1 0) 1) :named one_M0))
(assert (! (>= (ite y_M0_s1 1 0) 1) :named busy_arc_a0_1_t1))
(assert (! (>= (ite y_M0_s1 1 0) 1) :named busy_arc_a1_4_t1))
(assert (! (>= (ite y_M0_s1 1 0) 1) :named busy_arc_a4_7_t1))
(check-sat)
