/** What the outside-kernels row and the profiled engine time mean, said once for the terminal and the dashboard. */
export const profileTimeNote =
  'outside kernels: the profiled engine time minus the kernel sum (feeds, uploads, read-back, dispatch, JavaScript glue). ' +
  "The profiled pass runs after the timed rounds and never enters the statistics; its engine time above the timed mean is the instrument's overhead. Files: profile.csv, profile.parquet, time-breakdown.png.";
