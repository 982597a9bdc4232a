; commsched exact model (SMT-LIB2)
; bufferless start times (virtual schedules), 4 messages, horizon T = 1
; 4 variables (4 boolean), 4 constraints
(set-logic QF_LIA)
(declare-const y_M0_s1 Bool)
(declare-const y_M1_s1 Bool)
(declare-const y_M2_s1 Bool)
(declare-const y_M3_s1 Bool)
(assert (! (= (ite y_M0_s1 1 0) 1) :named one_M0))
(assert (! (= (ite y_M1_s1 1 0) 1) :named one_M1))
(assert (! (= (ite y_M2_s1 1 0) 1) :named one_M2))
(assert (! (= (ite y_M3_s1 1 0) 1) :named one_M3))
(check-sat)
