; commsched exact model (SMT-LIB2)
; total exchange on path:2 under F*, store-and-forward move mode, p = 1, horizon T = 1
; 2 variables (2 boolean), 2 constraints
(set-logic QF_LIA)
(declare-const x_m0_1_a0_1_t1 Bool)
(declare-const x_m1_0_a1_0_t1 Bool)
(assert (! (= (ite x_m0_1_a0_1_t1 1 0) 1) :named at_m0_1_v0_t0))
(assert (! (= (ite x_m1_0_a1_0_t1 1 0) 1) :named at_m1_0_v1_t0))
(check-sat)
