--
-- What the extension declares: volatility, parallel safety and strictness of every function,
-- and a comment on every object.
--
SELECT p.oid::regprocedure AS function,
       CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END AS volatility,
       CASE p.proparallel WHEN 's' THEN 'safe' WHEN 'r' THEN 'restricted' ELSE 'unsafe' END AS parallel,
       p.proisstrict AS strict,
       p.prosecdef AS security_definer
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- Objects without a comment (none expected).
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS uncommented
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
WHERE d.deptype = 'e' AND obj_description(d.objid, d.classid::regclass::name) IS NULL
  -- PostgreSQL 18 also makes a type's implicit array type a member of the extension.
  AND NOT EXISTS (SELECT FROM pg_type t WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid AND t.typcategory = 'A');

SELECT extversion, extrelocatable FROM pg_extension WHERE extname = 'comb_ext';
