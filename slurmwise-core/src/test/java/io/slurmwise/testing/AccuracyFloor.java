package io.slurmwise.testing;

/**
 * The one place the tests' floors on the bundled benchmark's dev split live (the classifier's own test, the evaluator's
 * and the CLI's). A floor guards against regressions; it is not the target, which benchmark/README.md reports with the
 * measured figures. History: 0.961 (0.993 on clear cases) on the 416 dev cases of v2 to v4; 0.930 (0.963) on 541 after
 * v12; 0.931 (0.965) on 642 after v16; 0.911 (0.960) on 789 after v24; 0.917 (0.962) on 828 after v27; 0.923 (0.968) on 848 after v28; 0.912 (0.957) on 906 after v29; 0.909 (0.958) on 935 after v30; 0.910 (0.957) on 969 after v31; 0.909 (0.954) on 989 after v32. Each pass taken as they came lowers the mean,
 * since its cases whose cause is only in the thread stay out of any text rule's reach.
 */
public final class AccuracyFloor {

    /** All dev cases. */
    public static final double DEV = 0.89;
    /** Dev cases whose text shows the cause. */
    public static final double DEV_CLEAR = 0.94;

    private AccuracyFloor() {
    }
}
