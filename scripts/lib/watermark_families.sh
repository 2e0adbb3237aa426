# The watermark families for the shell tests: each one's SQL type, watermark function and the
# function that reads an id's time (uid8 as time_sequential, the mode W orders).
FAMILIES=(comb sno muid uid8)
declare -A TYPE=([comb]=uuid [sno]=sno [muid]=uuid [uid8]=bigint)
declare -A WFN=([comb]="comb_watermark()" [sno]="sno_watermark()" [muid]="muid_watermark()" [uid8]="uid8_watermark()")
declare -A TIMEFN=([comb]=comb_timestamp [sno]=sno_time [muid]=muid_timestamp [uid8]=uid8_timestamp)
