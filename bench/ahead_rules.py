#!/usr/bin/env python3
"""Speed rules for weather ahead's ETA, tried on a recorded drive (issue 20; bench/README.md
"The ETA's speed rule"). Usage: bench/ahead_rules.py TRACK.nmea [REFRESH_MIN] [rule,rule...]

For a forecast every REFRESH_MIN minutes of the drive (not while stationary: 2 min under 1 m/s), each
rule learns a speed from the drive's own fixes before the forecast (never a fixed speed), lays the
30- and 60-min samples at speed x lead along the drive's own path, and the error is
(lead - actual lead) / actual lead, the actual lead being when the drive then made that distance.
A model of fixcast-bench --ahead-eta (which runs the real AheadService, thinned store and route
projection) for rules not in the code: its figures are close to the bench's, not the same.
"interrupted" (steady column): a gap > 3 min or 2 min under 1 m/s before the arrival.
"""
import math, sys, statistics, datetime
def parse(path):
    out=[]
    for line in open(path, errors='replace'):
        if 'RMC' not in line[:7]: continue
        f=line.strip().split('*')[0].split(',')
        if len(f)<10 or f[2]!='A': continue
        try:
            hh=f[1]; d=f[9]
            t=datetime.datetime(2000+int(d[4:6]),int(d[2:4]),int(d[0:2]),int(hh[0:2]),int(hh[2:4]),int(float(hh[4:])),tzinfo=datetime.timezone.utc).timestamp()
            lat=int(f[3][:2])+float(f[3][2:])/60; lat*= -1 if f[4]=='S' else 1
            lon=int(f[5][:3])+float(f[5][3:])/60; lon*= -1 if f[6]=='W' else 1
            sp=float(f[7])*0.514444 if f[7] else None
        except Exception: continue
        if out and t<=out[-1][0]: continue
        out.append((t,lat,lon,sp))
    return out
def dist(a,b):
    R=6371008.8
    p1,p2=math.radians(a[1]),math.radians(b[1]); dl=math.radians(b[2]-a[2])
    h=math.sin((p2-p1)/2)**2+math.cos(p1)*math.cos(p2)*math.sin(dl/2)**2
    return 2*R*math.asin(min(1,math.sqrt(h)))
GAP=180
def prep(fx):
    cum=[0.0]
    for i in range(1,len(fx)): cum.append(cum[-1]+dist(fx[i-1],fx[i]))
    return cum
def pairs(fx,i,W):
    t0=fx[i][0]; out=[]
    j=i
    while j>0 and fx[j-1][0]>=t0-W: j-=1
    for k in range(j+1,i+1):
        dt=fx[k][0]-fx[k-1][0]
        out.append((dist(fx[k-1],fx[k]),dt))
    return out
def wmedian(ps):
    ps=sorted(ps); tot=sum(w for _,w in ps); acc=0
    for v,w in ps:
        acc+=w
        if acc>=tot/2: return v
def r_current(fx,i,W=1200):
    ps=[(d/dt,dt) for d,dt in pairs(fx,i,W) if 0<dt<=GAP and d/dt>=1]
    if sum(w for _,w in ps)>=60: return wmedian(ps)
    return fx[i][3] if fx[i][3] and fx[i][3]>=1 else None
def r_pace(W,gapmode='skip',G=GAP):
    def f(fx,i):
        d=t=0
        for dd,dt in pairs(fx,i,W):
            if dt>G:
                if gapmode=='stop': t+=dt
                continue
            d+=dd; t+=dt
        if t>=60 and d/t>=1: return d/t
        return r_current(fx,i)
    return f
def r_movfrac(W,Wm=1200):
    def f(fx,i):
        v=r_current(fx,i,Wm)
        if v is None: return None
        mv=tt=0
        for dd,dt in pairs(fx,i,W):
            if dt>GAP: continue
            tt+=dt
            if dd/dt>=1: mv+=dt
        frac=mv/tt if tt>=60 else 1
        return v*frac
    return f
def r_meanmoving(W):
    def f(fx,i):
        d=t=0
        for dd,dt in pairs(fx,i,W):
            if 0<dt<=GAP and dd/dt>=1: d+=dd;t+=dt
        return d/t if t>=60 else r_current(fx,i)
    return f
def evaluate(fx,cum,rule,refresh=60):
    res={30:[],60:[]}; steady={30:[],60:[]}
    start=fx[0][0]; nextt=start
    import bisect
    times=[x[0] for x in fx]
    for i in range(len(fx)):
        if fx[i][0]<nextt: continue
        v=rule(fx,i)
        if v is None: continue
        # stationary: slower than 1 m/s for 2 min -> skip (approx with receiver speed)
        j=i; stat=True
        while j>=0 and fx[j][0]>=fx[i][0]-120:
            if (fx[j][3] or 0)>=1: stat=False;break
            j-=1
        if stat: continue
        nextt=fx[i][0]+refresh
        for L in (30,60):
            target=cum[i]+v*L*60
            k=bisect.bisect_left(cum,target,lo=i)
            if k>=len(cum): continue
            # interpolate
            if k>i and fx[k][0]-fx[k-1][0]<=GAP and cum[k]>cum[k-1]:
                a=fx[k-1][0]+(target-cum[k-1])/(cum[k]-cum[k-1])*(fx[k][0]-fx[k-1][0])
            else: a=fx[k][0]
            act=a-fx[i][0]
            if act<=0: continue
            err=(L*60-act)/act*100
            res[L].append(err)
            # interrupted: gap or stop 2 min below 1 m/s
            intr=False; slow=None
            for m in range(i+1,k+1):
                if fx[m][0]-fx[m-1][0]>GAP: intr=True;break
                if (fx[m][3] or 0)<1:
                    if slow is None: slow=fx[m][0]
                    if fx[m][0]-slow>=120: intr=True;break
                else: slow=None
            if not intr: steady[L].append(err)
    return res,steady
def med(x): return statistics.median(x) if x else float('nan')
def r_adopted(W=3600, park=600):
    """The rule adopted in TravelSpeed.learn: distance moving / (time moving + stops up to `park`),
    gaps > GAP and longer parks left out, over the last W seconds."""
    def f(fx,i):
        d=mv=cs=op=0
        for dd,dt in pairs(fx,i,W):
            if dt<=0: continue
            if dt>GAP:
                cs+=op if op<=park else 0; op=0; continue
            if dd/dt>=1:
                cs+=op if op<=park else 0; op=0; d+=dd; mv+=dt
            else: op+=dt
        cs+=op if op<=park else 0
        if mv>=60 and d/(mv+cs)>=1: return d/(mv+cs)
        v=fx[i][3]
        return v if v and v>=1 else None
    return f
def r_gapstop(W=3600, park=600, gapcap=600, gapdist=True):
    def f(fx,i):
        d=mv=cs=op=0
        for dd,dt in pairs(fx,i,W):
            if dt<=0: continue
            if dt>GAP:
                cs+=op if op<=park else 0; op=0
                if dt<=gapcap:
                    cs+=dt
                    if gapdist: d+=dd
                continue
            if dd/dt>=1:
                cs+=op if op<=park else 0; op=0; d+=dd; mv+=dt
            else: op+=dt
        cs+=op if op<=park else 0
        if mv>=60 and d/(mv+cs)>=1: return d/(mv+cs)
        v=fx[i][3]
        return v if v and v>=1 else None
    return f

def r_ew(H, W=3600, park=600):
    """r_adopted's pace with each step weighted 0.5^(age / H) (half-life H s): gaps and parks left out."""
    def f(fx,i):
        ps=pairs(fx,i,W)
        ages=[]; age=0  # a step's age: the time of the steps after it, up to the forecast
        for _,dt in reversed(ps): ages.append(age); age+=dt
        ages.reverse()
        num=den=mv=opw=opt=0  # opw, opt: the open stop's weighted and plain durations
        for (dd,dt),age in zip(ps,ages):
            if dt<=0: continue
            w=0.5**(age/H)
            if dt>GAP or dd/dt>=1:
                if opt<=park: den+=opw
                opw=opt=0
                if dt>GAP: continue
                num+=w*dd; den+=w*dt; mv+=dt
            else: opw+=w*dt; opt+=dt
        if opt<=park: den+=opw
        if mv>=60 and den>0 and num/den>=1: return num/den
        v=fx[i][3]; return v if v and v>=1 else None
    return f

def all_rules():
    rules={'current (median moving, 20 min)':r_current}
    for W in (20,30,45,60,90,120):
        rules[f'pace {W} min, gaps left out']=r_pace(W*60)
        rules[f'pace {W} min, gaps as stops']=r_pace(W*60,'stop')
        rules[f'moving median x moving fraction {W} min']=r_movfrac(W*60)
        rules[f'mean moving speed {W} min']=r_meanmoving(W*60)
    rules['pace of the trip, gaps left out']=r_pace(1e7)
    rules['pace of the trip, gaps as stops']=r_pace(1e7,'stop')
    rules['adopted: pace 60 min, parks > 10 min and gaps left out']=r_adopted()
    rules['pace 120 min, parks > 10 min and gaps left out']=r_adopted(7200)
    rules['pace 60 min, gaps <= 10 min as stops']=r_gapstop()
    for H in (5,10,20,30):
        rules[f'pace weighted to the last minutes (half-life {H} min), parks and gaps left out']=r_ew(H*60)
    return rules

if __name__=='__main__':
    fx=parse(sys.argv[1]); cum=prep(fx)
    refresh=float(sys.argv[2])*60 if len(sys.argv)>2 else 60
    rules=all_rules()
    sel=[n for n in rules if len(sys.argv)<=3 or any(k in n for k in sys.argv[3].split(','))]
    print("rule | 30 min: n, median |error|, signed median, steady n, steady median |error| | 60 min: same")
    for name in sel:
        res,st=evaluate(fx,cum,rules[name],refresh)
        print(f"{name:55s} " + "  ".join(f"{L}: n{len(res[L])} |e| {med([abs(e) for e in res[L]]):5.1f} signed {med(res[L]):6.1f} steady n{len(st[L])} {med([abs(e) for e in st[L]]):5.1f}" for L in (30,60)))
