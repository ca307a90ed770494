package v2

import (
	"fmt"
	"strings"

	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
)

// ConvertTo fills the hub (v1) from c, joining the schedule's fields.
func (c *CronJob) ConvertTo(hub *v1.CronJob) error {
	parts := make([]string, 5)
	for i, f := range c.Spec.Schedule.fields() {
		parts[i] = "*"
		if *f != nil {
			parts[i] = string(**f)
		}
	}
	s := c.Spec
	hub.Spec = v1.CronJobSpec{Schedule: strings.Join(parts, " "), StartingDeadlineSeconds: s.StartingDeadlineSeconds,
		ConcurrencyPolicy: v1.ConcurrencyPolicy(s.ConcurrencyPolicy), Suspend: s.Suspend, JobTemplate: s.JobTemplate,
		SuccessfulJobsHistoryLimit: s.SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit: s.FailedJobsHistoryLimit}
	hub.Status = v1.CronJobStatus(c.Status)
	return nil
}

// ConvertFrom fills c from the hub, splitting the schedule; "*" leaves a
// field out. A schedule that is not five fields (@daily) cannot be
// written in v2.
func (c *CronJob) ConvertFrom(hub *v1.CronJob) error {
	parts := strings.Fields(hub.Spec.Schedule)
	if len(parts) != 5 {
		return fmt.Errorf("schedule %q is not five cron fields, which v2 needs", hub.Spec.Schedule)
	}
	s := hub.Spec
	c.Spec = CronJobSpec{StartingDeadlineSeconds: s.StartingDeadlineSeconds, ConcurrencyPolicy: ConcurrencyPolicy(s.ConcurrencyPolicy),
		Suspend: s.Suspend, JobTemplate: s.JobTemplate, SuccessfulJobsHistoryLimit: s.SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit: s.FailedJobsHistoryLimit}
	for i, f := range c.Spec.Schedule.fields() {
		if parts[i] != "*" {
			v := CronField(parts[i])
			*f = &v
		}
	}
	c.Status = CronJobStatus(hub.Status)
	return nil
}

// fields are the schedule's fields, in cron's order.
func (s *CronSchedule) fields() []**CronField {
	return []**CronField{&s.Minute, &s.Hour, &s.DayOfMonth, &s.Month, &s.DayOfWeek}
}
