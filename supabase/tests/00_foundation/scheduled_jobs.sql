-- Scheduled work (private.scheduled_jobs, 00_foundation.sql): the product's jobs are rows,
-- each schedule one the local stack's timers understand, and private.sync_cron_job keeps
-- pg_cron's jobs in step with the rows. pg_cron is not installed here, so a stand-in cron
-- schema with the two functions the trigger calls records what pg_cron would hold.
begin;
select plan(14);

select set_eq(
  $$select name from private.scheduled_jobs$$,
  array['crm-contract-due-steps', 'crm-expire-quotes', 'crm-maintenance', 'crm-notify-due-items', 'crm-refill-tenant-spares'],
  'every scheduled job of the product is a row'
);

select is_empty(
  $$select name from private.scheduled_jobs j
     where not exists (select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
                        where n.nspname = 'private' and p.proname = j.function_name
                          and case when j.in_each_organization
                                   then p.pronargs >= 1 and p.proargtypes[0] = 'uuid'::regtype and p.pronargs - p.pronargdefaults <= 1
                                   else p.pronargs = p.pronargdefaults end)$$,
  'every job runs a private function that exists: without arguments, or with an organization''s id in each organization'
);

select throws_ok(
  $$insert into private.scheduled_jobs (name, schedule, function_name) values ('crm-every-five', '*/5 * * * *', 'run_maintenance')$$,
  '23514', null, 'a schedule other than every minute or hourly is refused'
);

select throws_ok(
  $$insert into private.scheduled_jobs (name, schedule, function_name) values ('crm-drop', '* * * * *', 'x(); drop table private.organizations; select private.y')$$,
  '23514', null, 'a function name that is not one is refused (no statement rides along)'
);

select is((select command from private.scheduled_jobs where name = 'crm-maintenance'), 'select private.run_maintenance()',
  'a job runs its function once');
select matches((select command from private.scheduled_jobs where name = 'crm-notify-due-items'),
  'perform private\.notify_due_items\(organization\.id\);\s+exception when others then[^$]*commit;',
  'a job in each organization runs its function per organization and commits after each');

-- Without pg_cron the rows change and nothing else happens.
select lives_ok(
  $$insert into private.scheduled_jobs (name, schedule, function_name) values ('crm-test-job', '* * * * *', 'run_maintenance')$$,
  'without pg_cron a job is added as a row only'
);

-- The stand-in for pg_cron: cron.job and the two functions, by name, as pg_cron has them.
create schema cron;
create table cron.job (jobid bigserial primary key, jobname text unique, schedule text, command text);
create function cron.schedule(job_name text, schedule text, command text) returns bigint
language sql as $$
  insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
  on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command
  returning jobid;
$$;
create function cron.unschedule(job_name text) returns boolean
language sql as $$ delete from cron.job where jobname = job_name returning true; $$;

update private.scheduled_jobs set name = name;
select set_eq(
  $$select jobname, schedule, command from cron.job$$,
  $$select name, schedule, command from private.scheduled_jobs$$,
  'once pg_cron is there, touching the rows schedules every job as it stands'
);

insert into private.scheduled_jobs (name, schedule, function_name) values ('crm-another-job', '5 * * * *', 'run_maintenance');
select results_eq(
  $$select schedule, command from cron.job where jobname = 'crm-another-job'$$,
  $$values ('5 * * * *'::text, 'select private.run_maintenance()'::text)$$,
  'a new job is scheduled under its name'
);

update private.scheduled_jobs set schedule = '45 * * * *' where name = 'crm-another-job';
select results_eq(
  $$select schedule from cron.job where jobname = 'crm-another-job'$$,
  $$values ('45 * * * *'::text)$$,
  'a changed schedule replaces the job'
);
select is((select count(*)::int from cron.job where jobname = 'crm-another-job'), 1, 'and does not add a second one');

update private.scheduled_jobs set name = 'crm-renamed-job' where name = 'crm-another-job';
select set_eq(
  $$select jobname from cron.job where jobname in ('crm-another-job', 'crm-renamed-job')$$,
  array['crm-renamed-job'],
  'a renamed job is unscheduled under its old name and scheduled under its new one'
);

delete from private.scheduled_jobs where name = 'crm-renamed-job';
select is_empty($$select 1 from cron.job where jobname = 'crm-renamed-job'$$, 'a removed job is unscheduled');

select set_eq(
  $$select jobname from cron.job$$,
  $$select name from private.scheduled_jobs$$,
  'pg_cron holds exactly the jobs the table holds'
);

select * from finish();
rollback;
